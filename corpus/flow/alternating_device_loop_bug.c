// corpus/flow/alternating_device_loop_bug.c — a "load balancing" loop alternates the device of
// each micro-batch between the two accelerators, but the weights stay on sim:0. Iteration 0
// works, iteration 1 does not. The loop's bound is a constant, so iteration 1 runs on every
// execution: no undecided branch is involved, an error (the run fails there every time).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_tensor *w = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){3, 1});
  for (int i = 0; i < 4; i++) {
    dt_device dev = (i % 2) ? dt_sim(1) : dt_sim(0);
    dt_tensor *x = dt_randn(dev, (uint64_t)i, 2, (const int64_t[]){2, 3});
    dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
    printf("micro-batch %d: %lld\n", i, (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  }
  dt_free(w);
  return 0;
}
