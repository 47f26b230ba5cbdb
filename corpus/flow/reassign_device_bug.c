// corpus/flow/reassign_device_bug.c — a warm-up phase runs on sim:0, then the script
// "switches to the second accelerator" by reassigning the device variable, but the weights
// created during warm-up stay on sim:0. Bug: the new batches are on sim:1 (device-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  const int64_t wshape[2] = {3, 3};
  const int64_t xshape[2] = {2, 3};
  dt_tensor *w = dt_randn(dev, 5, 2, wshape);

  for (int step = 0; step < 2; step++) {
    dt_tensor *x = dt_randn(dev, (uint64_t)step, 2, xshape);
    dt_tensor *y = dt_matmul(x, w);
    dt_free(y);
    dt_free(x);
  }

  dev = dt_sim(1); /* main phase */
  dt_tensor *x = dt_randn(dev, 99, 2, xshape);
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  printf("out %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
