// provenance: blind round field3
// pick_device fills the device through an out-parameter and returns whether it is an
// accelerator; host-only metrics are computed on a host copy only when it is not.
#include <dt/dt.h>
#include <stdio.h>
static int pick_device(int want_sim, dt_device *out) {
  if (want_sim) { *out = dt_sim(1); return 1; }
  *out = dt_cpu();
  return 0;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_device d;
  int accel = pick_device(argc > 1, &d);
  dt_tensor *x = dt_randn(d, 1, 2, (const int64_t[]){2, 2});
  dt_tensor *ref = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 2});
  dt_tensor *host = accel ? dt_to_device(x, dt_cpu()) : x;
  dt_tensor *diff = dt_sub(host, ref);
  if (!accel) {
    dt_tensor *again = dt_add(x, ref);
    dt_free(again);
  }
  dt_tensor *s = dt_sum(diff);
  float v; dt_read_floats(s, &v, 1);
  printf("%f\n", v);
  return 0;
}
