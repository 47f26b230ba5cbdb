// run-args: --device sim
// main.c — builds data on cfg.data_dev and the model on cfg.model_dev.
#include "config.h"
#include <stdio.h>
int main(int argc, char **argv) {
  config cfg;
  config_parse(&cfg, argc, argv);
  dt_tensor *w = dt_ones(cfg.model_dev, DT_FLOAT, 2, (const int64_t[]){2, 2});
  dt_tensor *x = dt_ones(cfg.data_dev, DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *y = dt_matmul(x, w); // expect-warning: backend-mismatch
  float v[2];
  dt_read_floats(y, v, 2);
  printf("%.1f\n", v[0]);
  return 0;
}
