// corpus/interproc/config_mutated_by_callee_bug.c — `enable_second_device(&cfg)` rewrites the
// config's device behind the caller's back after the model was built from it. Tensors made
// from cfg.dev afterwards are on sim:1 while the model is on sim:0 (device-mismatch).
#include <stdio.h>

#include <dt/dt.h>

typedef struct trainer_config {
  dt_device dev;
  int batch;
  float lr;
} trainer_config;

static void enable_second_device(trainer_config *cfg) {
  cfg->dev = dt_sim(1);
  cfg->batch *= 2;
}

int main(void) {
  trainer_config cfg = {dt_sim(0), 4, 0.1f};
  dt_tensor *w = dt_randn(cfg.dev, 1, 2, (const int64_t[]){3, 1});
  enable_second_device(&cfg);
  dt_tensor *x = dt_randn(cfg.dev, 2, 2, (const int64_t[]){cfg.batch, 3});
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
