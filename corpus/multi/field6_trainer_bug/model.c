// model.c — a linear model created on the global training device.
#include "trainer.h"

void model_init(model *m) {
  m->dev = g_train_dev;
  m->w = dt_full(m->dev, 0.1f, 2, (const int64_t[]){FEAT, 1});
  m->b = dt_zeros(m->dev, DT_FLOAT, 1, (const int64_t[]){1});
}

void model_free(model *m) {
  dt_free(m->w);
  dt_free(m->b);
}

dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w); // expect-error: device-mismatch
  dt_tensor *o = dt_add(h, m->b);
  dt_free(h);
  return o;
}

void model_step(model *m, const dt_tensor *x, const dt_tensor *y, float lr) {
  dt_tensor *p = model_forward(m, x);
  dt_tensor *e = dt_sub(p, y);
  dt_tensor *xt = dt_transpose(x);
  dt_tensor *g = dt_matmul(xt, e);
  dt_tensor *gs = dt_mul_scalar(g, lr);
  dt_tensor *nw = dt_sub(m->w, gs);
  dt_free(m->w);
  m->w = nw;
  dt_free(p);
  dt_free(e);
  dt_free(xt);
  dt_free(g);
  dt_free(gs);
}
