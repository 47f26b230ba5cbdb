#include "train.h"
void ema_init(ema *e, const model *m, dt_device where) {
  e->dev = where;
  dt_tensor *wi = dt_inner(m->w);
  e->w = dt_to_device(wi, where);
  dt_free(wi);
}
void ema_step(ema *e, const model *m, float decay) {
  dt_tensor *wi = dt_inner(m->w);
  dt_tensor *moved = dt_to_device(wi, e->dev);
  dt_tensor *a = dt_mul_scalar(e->w, decay), *b = dt_mul_scalar(moved, 1.0f - decay);
  dt_free(e->w);
  e->w = dt_add(a, b);
  dt_free(wi); dt_free(moved); dt_free(a); dt_free(b);
}
