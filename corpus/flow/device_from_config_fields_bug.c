// corpus/flow/device_from_config_fields_bug.c — the device is assembled from separate config
// fields (`backend`, `ordinal`) in an initializer; the config says sim ordinal 1, the data
// loader hard-codes dt_sim(0). Bug: device-mismatch.
#include <stdio.h>

#include <dt/dt.h>

typedef struct hw_config {
  dt_backend backend;
  int ordinal;
  int batch;
} hw_config;

int main(void) {
  hw_config cfg = {DT_BACKEND_SIM, 1, 4};
  dt_device model_dev = {cfg.backend, cfg.ordinal, 0};
  dt_tensor *w = dt_randn(model_dev, 1, 2, (const int64_t[]){5, 2});
  dt_tensor *x = dt_randn(dt_sim(0), 2, 2, (const int64_t[]){cfg.batch, 5});
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
