// corpus/interproc/helper_ignores_device_bug.c — a weight initializer takes a device argument
// but creates the tensor on the host (a leftover from debugging). The caller combines its
// result with sim:0 activations. Bug: backend-mismatch in the caller, at the matmul.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *init_weight(dt_device dev, int fan_in, int fan_out) {
  (void)dev;
  dt_tensor *w = dt_randn(dt_cpu(), 1234, 2, (const int64_t[]){fan_in, fan_out});
  dt_tensor *scaled = dt_mul_scalar(w, 0.1f);
  dt_free(w);
  return scaled;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *x = dt_randn(dev, 1, 2, (const int64_t[]){2, 5});
  dt_tensor *w = init_weight(dev, 5, 3);
  dt_tensor *y = dt_matmul(x, w); // expect-error: backend-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(w);
  dt_free(x);
  return 0;
}
