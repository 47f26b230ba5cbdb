// provenance: blind round field6
// Seven separate device choices that all read the same flag (ACCEL in the environment, or
// --accel on the command line): each is `if (accel) d = dt_sim(0); else d = dt_cpu();`
// (two of them spelled with the condition negated).  The flag is unknown statically, but it
// is the same flag every time, so on every path all seven devices are equal and the parts
// can be combined without transfers.  A checker that forgets the correlation between the
// seven choices (2^7 combinations) reports false mismatches.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4
static const int64_t S[1] = {N};

static int want_accel(int argc, char **argv) {
  const char *env = getenv("ACCEL");
  if (env != NULL && env[0] == '1')
    return 1;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--accel") == 0)
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  int accel = want_accel(argc, argv);
  dt_device d1, d2, d3, d4, d5, d6, d7;
  if (accel) d1 = dt_sim(0); else d1 = dt_cpu();
  if (accel) d2 = dt_sim(0); else d2 = dt_cpu();
  if (!accel) d3 = dt_cpu(); else d3 = dt_sim(0);
  if (accel) d4 = dt_sim(0); else d4 = dt_cpu();
  if (accel) d5 = dt_sim(0); else d5 = dt_cpu();
  if (!accel) d6 = dt_cpu(); else d6 = dt_sim(0);
  if (accel) d7 = dt_sim(0); else d7 = dt_cpu();

  dt_tensor *a = dt_ones(d1, DT_FLOAT, 1, S);
  dt_tensor *b = dt_full(d2, 2.0f, 1, S);
  dt_tensor *c = dt_randn(d3, 7, 1, S);
  dt_tensor *e = dt_full(d4, 0.5f, 1, S);
  dt_tensor *f = dt_zeros(d5, DT_FLOAT, 1, S);
  dt_tensor *g = dt_full(d6, 3.0f, 1, S);
  dt_tensor *h = dt_ones(d7, DT_FLOAT, 1, S);

  dt_tensor *ab = dt_add(a, b);
  dt_tensor *abc = dt_mul(ab, c);
  dt_tensor *abce = dt_sub(abc, e);
  dt_tensor *abcef = dt_add(abce, f);
  dt_tensor *abcefg = dt_div(abcef, g);
  dt_tensor *all = dt_add(abcefg, h);
  dt_tensor *tot = dt_sum(all);
  float v = 0.0f;
  dt_read_floats(tot, &v, 1);
  printf("accel=%d total %.4f\n", accel, (double)v);

  dt_tensor *ts[7] = {a, b, c, e, f, g, h};
  for (int i = 0; i < 7; i++)
    dt_free(ts[i]);
  dt_free(ab);
  dt_free(abc);
  dt_free(abce);
  dt_free(abcef);
  dt_free(abcefg);
  dt_free(all);
  dt_free(tot);
  return 0;
}
