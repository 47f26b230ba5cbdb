// provenance: blind round field6
// Gathering per-layer outputs into a local list with `l.items[l.n++] = x` before a dt_cat.
// The encoder layers run on sim:0; the last "adapter" layer was moved to sim:1 for memory
// and its output is appended without a transfer, so the concatenation (which checks every
// element) fails.  A second list is built the same way but every element is moved first.
#include <dt/dt.h>
#include <stdio.h>

#define MAXL 8
#define N 2

static const int64_t S[2] = {1, N};

typedef struct tlist {
  dt_tensor *items[MAXL];
  int n;
} tlist;

static dt_tensor *layer_out(dt_device d, int k) {
  float v[N] = {(float)k, (float)k + 0.5f};
  return dt_from_floats(d, v, 2, S);
}

int main(void) {
  tlist l;
  l.n = 0;
  for (int k = 0; k < 3; k++)
    l.items[l.n++] = layer_out(dt_sim(0), k);
  l.items[l.n++] = layer_out(dt_sim(1), 3);

  tlist fixed = {{NULL}, 0};
  for (int i = 0; i < l.n; i++)
    fixed.items[fixed.n++] = dt_to_device(l.items[i], dt_sim(0));
  dt_tensor *good = dt_cat(fixed.n, fixed.items, 0);

  dt_tensor *first3 = dt_cat(3, l.items, 0);
  dt_tensor *all = dt_cat(l.n, l.items, 0); // expect-error: device-mismatch

  printf("good rows %lld, first3 rows %lld\n", (long long)dt_dim(good, 0), (long long)dt_dim(first3, 0));
  dt_free(all);
  dt_free(first3);
  dt_free(good);
  for (int i = 0; i < l.n; i++)
    dt_free(l.items[i]);
  for (int i = 0; i < fixed.n; i++)
    dt_free(fixed.items[i]);
  return 0;
}
