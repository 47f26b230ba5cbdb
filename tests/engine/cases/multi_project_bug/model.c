#include "model.h"
void model_init(model *m) {
  m->dev = g_train_device;
  m->w = dt_randn(m->dev, 1, 2, (const int64_t[]){4, 4});
}
dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w);
  dt_tensor *y = residual(x, h);
  dt_free(h);
  return y;
}
