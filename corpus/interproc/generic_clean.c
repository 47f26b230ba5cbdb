// provenance: blind round field6
// _Generic used to dispatch on the type of a "placement" value: a dt_device is used as it
// is, an int is a sim ordinal, a const char * names "cpu" or a sim ordinal ("sim1").  All
// three spellings below name sim:1 (the string at run time), and tensors built from them are
// mixed only after a dt_to_device to a device taken from an existing tensor.  The typed
// ones must be recognised as sim:1; the string one is unknown statically.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define N 3
static const int64_t S[1] = {N};

static dt_device from_device(dt_device d) { return d; }
static dt_device from_ordinal(int k) { return dt_sim(k); }
static dt_device from_name(const char *s) {
  if (strcmp(s, "cpu") == 0)
    return dt_cpu();
  return dt_sim(s[3] - '0');
}

#define PLACE(x) _Generic((x), dt_device: from_device, int: from_ordinal, \
                          const char *: from_name, char *: from_name)(x)
#define ZEROS_LIKE(t) dt_zeros(dt_device_of(t), dt_kind_of(t), dt_rank(t), S)

int main(int argc, char **argv) {
  (void)argv;
  dt_device a = PLACE(dt_sim(1));
  dt_device b = PLACE(1);
  char name[8] = "sim1";
  if (argc > 5)
    strcpy(name, "cpu");
  dt_device c = PLACE(name);

  dt_tensor *ta = dt_ones(a, DT_FLOAT, 1, S);
  dt_tensor *tb = dt_full(b, 2.0f, 1, S);
  dt_tensor *tc = dt_full(c, 3.0f, 1, S);
  dt_tensor *ab = dt_add(ta, tb);
  dt_tensor *tc_here = dt_to_device(tc, dt_device_of(ab));
  dt_tensor *abc = dt_mul(ab, tc_here);
  dt_tensor *z = ZEROS_LIKE(abc);
  dt_tensor *out = dt_add(abc, z);
  float v[N];
  dt_read_floats(out, v, N);
  printf("%.1f %.1f %.1f\n", (double)v[0], (double)v[1], (double)v[2]);
  dt_free(out);
  dt_free(z);
  dt_free(abc);
  dt_free(tc_here);
  dt_free(ab);
  dt_free(tc);
  dt_free(tb);
  dt_free(ta);
  return 0;
}
