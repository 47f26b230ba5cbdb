// corpus/multi/optimizer_lib_bug/optim.c — the step keeps the velocity on the plain inner
// device (correct) but applies it to the tracked parameter directly (the bug): dt_sub of an
// autodiff parameter and a plain velocity (autodiff-expected).
#include "optim.h"

void optim_init(momentum_sgd *o, dt_device dev, int rows, int cols, float lr) {
  o->dev = dev;
  o->velocity = dt_zeros(dt_inner_device(dev), DT_FLOAT, 2, (const int64_t[]){rows, cols});
  o->lr = lr;
  o->beta = 0.9f;
}

void optim_step(momentum_sgd *o, dt_tensor **param) {
  dt_tensor *g = dt_grad(*param);
  if (!g) return;
  dt_tensor *decayed = dt_mul_scalar(o->velocity, o->beta);
  dt_tensor *v = dt_add(decayed, g);
  dt_free(o->velocity);
  o->velocity = v;
  dt_tensor *step = dt_mul_scalar(v, o->lr);
  dt_tensor *next = dt_sub(*param, step); // expect-error: autodiff-expected
  dt_free(*param);
  *param = dt_require_grad(next);
  dt_free(step);
  dt_free(decayed);
  dt_free(g);
}

void optim_free(momentum_sgd *o) { dt_free(o->velocity); }
