// optim.c — velocity buffers are created on the sim:0 inner device regardless of the model's.
#include "optim.h"
void sgd_init(sgd *o, dt_device ad, float lr, float mu) { o->n = 0; o->dev = ad; o->lr = lr; o->mu = mu; }
void sgd_add(sgd *o, dt_tensor **p, int64_t rows, int64_t cols) {
  o->params[o->n] = p;
  o->vel[o->n] = dt_zeros(dt_sim(0), DT_FLOAT, 2, (const int64_t[]){rows, cols});
  o->n++;
}
void sgd_step(sgd *o) {
  for (int i = 0; i < o->n; i++) {
    dt_tensor *g = dt_grad(*o->params[i]);
    if (!g) continue;
    dt_tensor *v1 = dt_mul_scalar(o->vel[i], o->mu);
    dt_tensor *v = dt_add(v1, g); // expect-error: device-mismatch
    dt_tensor *st = dt_mul_scalar(v, o->lr);
    dt_tensor *in = dt_inner(*o->params[i]);
    dt_tensor *nw = dt_sub(in, st);
    dt_free(*o->params[i]);
    *o->params[i] = dt_require_grad(dt_from_inner(o->dev, nw));
    dt_free(o->vel[i]);
    o->vel[i] = v;
    dt_free(g); dt_free(v1); dt_free(st); dt_free(in); dt_free(nw);
  }
}
