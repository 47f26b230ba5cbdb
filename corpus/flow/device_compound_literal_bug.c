// corpus/flow/device_compound_literal_bug.c — devices written as compound literals, as a
// config table might spell them: the "param" device literal says ordinal 1 while the data
// uses dt_sim(0). Bug: device-mismatch.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device data_dev = dt_sim(0);
  dt_device param_dev = (dt_device){DT_BACKEND_SIM, 1, 0};
  dt_tensor *w = dt_randn(param_dev, 1, 2, (const int64_t[]){2, 2});
  dt_tensor *x = dt_randn(data_dev, 2, 2, (const int64_t[]){3, 2});
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
