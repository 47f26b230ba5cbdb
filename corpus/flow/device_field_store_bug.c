// corpus/flow/device_field_store_bug.c — a device kept in a config struct is edited field by
// field: the launcher bumps `ordinal` to put the "replica" on the second accelerator, after
// the shared embedding was already created from the same config. Bug: device-mismatch.
#include <stdio.h>

#include <dt/dt.h>

typedef struct launch_config {
  dt_device dev;
  int batch;
} launch_config;

int main(void) {
  launch_config cfg;
  cfg.dev.backend = DT_BACKEND_SIM;
  cfg.dev.ordinal = 0;
  cfg.dev.autodiff = 0;
  cfg.batch = 4;
  dt_tensor *embedding = dt_randn(cfg.dev, 1, 2, (const int64_t[]){8, 4});

  cfg.dev.ordinal = 1; /* replica */
  dt_tensor *ids_onehot = dt_zeros(cfg.dev, DT_FLOAT, 2, (const int64_t[]){cfg.batch, 8});
  dt_tensor *vecs = dt_matmul(ids_onehot, embedding); // expect-error: device-mismatch
  printf("vecs %lld\n", (long long)dt_numel(vecs));
  dt_free(vecs);
  dt_free(ids_onehot);
  dt_free(embedding);
  return 0;
}
