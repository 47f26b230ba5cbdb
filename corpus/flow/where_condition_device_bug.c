// corpus/flow/where_condition_device_bug.c — ReLU-style gating where the gate comes from the
// second accelerator's copy of the activations: dt_where checks its condition's device too.
// Bug: device-mismatch (condition on sim:1, values on sim:0).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *x = dt_randn(dev, 1, 1, (const int64_t[]){8});
  dt_tensor *zero = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){8});
  dt_tensor *x_mirror = dt_to_device(x, dt_sim(1)); /* kept for the monitoring job */
  dt_tensor *zero_mirror = dt_zeros(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){8});
  dt_tensor *positive = dt_greater(x_mirror, zero_mirror);
  dt_tensor *gated = dt_where(positive, x, zero); // expect-error: device-mismatch
  printf("%lld\n", (long long)dt_numel(gated));
  return 0;
}
