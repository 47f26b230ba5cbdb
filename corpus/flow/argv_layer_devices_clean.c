// provenance: blind round field3
// Per-layer placement parsed from argv ("cpu", "sim0", "sim1"); the forward moves the
// activation to each layer's device, so any placement works.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#define NL 3
static dt_device parse_dev(const char *s) {
  if (strcmp(s, "cpu") == 0) return dt_cpu();
  if (strncmp(s, "sim", 3) == 0) return dt_sim(atoi(s + 3));
  return dt_cpu();
}
int main(int argc, char **argv) {
  dt_device dev[NL];
  for (int i = 0; i < NL; i++) dev[i] = parse_dev(i + 1 < argc ? argv[i + 1] : "cpu");
  dt_tensor *w[NL];
  for (int i = 0; i < NL; i++) w[i] = dt_randn(dev[i], (uint64_t)i, 2, (const int64_t[]){3, 3});
  dt_tensor *h = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 3});
  for (int i = 0; i < NL; i++) {
    dt_tensor *x = dt_to_device(h, dev[i]);
    dt_free(h);
    h = dt_matmul(x, w[i]);
    dt_free(x);
  }
  dt_tensor *host = dt_to_device(h, dt_cpu());
  float out[3]; dt_read_floats(host, out, 3);
  printf("%f %f %f\n", out[0], out[1], out[2]);
  return 0;
}
