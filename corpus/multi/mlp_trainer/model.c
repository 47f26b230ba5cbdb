// corpus/multi/mlp_trainer/model.c — the perceptron's implementation.
#include "model.h"

void model_init(model *m, dt_device dev) {
  m->dev = dev;
  m->w1 = dt_require_grad(dt_randn(dev, 1, 2, (const int64_t[]){MODEL_IN, MODEL_HIDDEN}));
  m->b1 = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){MODEL_HIDDEN}));
  m->w2 = dt_require_grad(dt_randn(dev, 2, 2, (const int64_t[]){MODEL_HIDDEN, 1}));
}

dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, m->w1);
  dt_tensor *b = dt_add(a, m->b1);
  dt_tensor *h = dt_relu(b);
  dt_tensor *y = dt_matmul(h, m->w2);
  dt_free(h);
  dt_free(b);
  dt_free(a);
  return y;
}

int model_params(model *m, dt_tensor ***slots, int cap) {
  if (cap < 3) return 0;
  slots[0] = &m->w1;
  slots[1] = &m->b1;
  slots[2] = &m->w2;
  return 3;
}

void model_free(model *m) {
  dt_free(m->w1);
  dt_free(m->b1);
  dt_free(m->w2);
}
