// corpus/flow/kind_from_config_bug.c — the buffer kind comes from a config struct whose
// `dtype` field was set to DT_INT ("the labels are integers"), but the buffer is used as
// float features in a matrix product. Bug: kind-mismatch (float x int).
#include <stdio.h>

#include <dt/dt.h>

typedef struct buffer_config {
  dt_kind dtype;
  int rows, cols;
} buffer_config;

int main(void) {
  buffer_config cfg = {DT_INT, 4, 3};
  dt_device dev = dt_sim(0);
  dt_tensor *features = dt_zeros(dev, cfg.dtype, 2, (const int64_t[]){cfg.rows, cfg.cols});
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){cfg.cols, 2});
  dt_tensor *y = dt_matmul(features, w); // expect-error: kind-mismatch
  printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
