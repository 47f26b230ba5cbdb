#include "backend.h"
#include <stdio.h>

static dt_tensor *fast_path(const dt_tensor *x) {
  dt_tensor *w = dt_ones(dt_cuda(0), DT_FLOAT, 2, (const int64_t[]){3, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_free(w);
  return y;
}

float model_run(void) {
  dt_tensor *x = dt_randn(g_dev, 1, 2, (const int64_t[]){2, 3});
  dt_tensor *y;
  if (g_have_cuda) y = fast_path(x);
  else {
    dt_tensor *w = dt_ones(g_dev, DT_FLOAT, 2, (const int64_t[]){3, 3});
    y = dt_matmul(x, w);
    dt_free(w);
  }
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  dt_free(x); dt_free(y); dt_free(m);
  return v;
}
