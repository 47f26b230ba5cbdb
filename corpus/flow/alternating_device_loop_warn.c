// corpus/flow/alternating_device_loop_warn.c — a "load balancing" loop alternates the device of
// each micro-batch between the two accelerators, but the weights stay on sim:0. Iteration 0
// works, iteration 1 does not; whether a given arrival at the call fails depends on the loop
// counter's parity: a warning (the run fails at the flagged line in the second iteration).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_tensor *w = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){3, 1});
  for (int i = 0; i < 4; i++) {
    dt_device dev = (i % 2) ? dt_sim(1) : dt_sim(0);
    dt_tensor *x = dt_randn(dev, (uint64_t)i, 2, (const int64_t[]){2, 3});
    dt_tensor *y = dt_matmul(x, w); // expect-warning: device-mismatch
    printf("micro-batch %d: %lld\n", i, (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  }
  dt_free(w);
  return 0;
}
