#include "proj.h"

void model_init(model *m, dt_device dev) {
  m->dev = dev;
  m->w1 = dt_randn(dev, 1, 2, (const int64_t[]){4, 8});
  m->w2 = dt_randn(dev, 2, 2, (const int64_t[]){8, 1});
}

dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = linear(x, m->w1);
  dt_tensor *a = dt_relu(h);
  dt_tensor *y = linear(a, m->w2);
  dt_free(h);
  dt_free(a);
  return y;
}

void model_free(model *m) {
  dt_free(m->w1);
  dt_free(m->w2);
}
