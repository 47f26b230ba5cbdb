#include "optim.h"

#include <math.h>

void adam_create(Adam *o, const Model *m, float lr) {
  dt_device plain = dt_inner_device(m->ad);
  o->n = m->n_params;
  o->t = 0;
  o->lr = lr;
  o->b1 = 0.9f;
  o->b2 = 0.99f;
  for (int i = 0; i < o->n; i++) {
    o->m[i] = dt_zeros(plain, DT_FLOAT, m->rank[i], m->shape[i]);
    o->v[i] = dt_zeros(plain, DT_FLOAT, m->rank[i], m->shape[i]);
  }
}

void adam_destroy(Adam *o) {
  for (int i = 0; i < o->n; i++) {
    dt_free(o->m[i]);
    dt_free(o->v[i]);
  }
  o->n = 0;
}

static dt_tensor *ema(const dt_tensor *old, float beta, const dt_tensor *x) {
  dt_tensor *a = dt_mul_scalar(old, beta);
  dt_tensor *b = dt_mul_scalar(x, 1.0f - beta);
  dt_tensor *r = dt_add(a, b);
  dt_free(a);
  dt_free(b);
  return r;
}

void adam_step(Adam *o, Model *m) {
  o->t++;
  float bc1 = 1.0f - powf(o->b1, (float)o->t), bc2 = 1.0f - powf(o->b2, (float)o->t);
  for (int i = 0; i < o->n; i++) {
    dt_tensor *g = dt_grad(m->p[i]);
    if (!g) continue;
    dt_tensor *g2 = dt_mul(g, g);
    dt_tensor *nm = ema(o->m[i], o->b1, g);
    dt_tensor *nv = ema(o->v[i], o->b2, g2);
    dt_free(o->m[i]);
    dt_free(o->v[i]);
    o->m[i] = nm;
    o->v[i] = nv;
    dt_tensor *vs = dt_add_scalar(nv, 1e-12f);
    dt_tensor *lv = dt_log(vs);
    dt_tensor *hl = dt_mul_scalar(lv, 0.5f);
    dt_tensor *rt = dt_exp(hl);
    dt_tensor *den = dt_add_scalar(rt, 1e-6f * sqrtf(bc2));
    dt_tensor *q = dt_div(nm, den);
    dt_tensor *st = dt_mul_scalar(q, o->lr * sqrtf(bc2) / bc1);
    dt_tensor *in = dt_inner(m->p[i]);
    dt_tensor *nw = dt_sub(in, st);
    model_set(m, i, nw);
    dt_tensor *tmp[] = {g, g2, vs, lv, hl, rt, den, q, st, in, nw};
    for (unsigned k = 0; k < sizeof tmp / sizeof *tmp; k++) dt_free(tmp[k]);
  }
}

void adam_to(Adam *o, dt_device plain) {
  for (int i = 0; i < o->n; i++) {
    dt_tensor *a = dt_to_device(o->m[i], plain);
    dt_tensor *b = dt_to_device(o->v[i], plain);
    dt_free(o->m[i]);
    dt_free(o->v[i]);
    o->m[i] = a;
    o->v[i] = b;
  }
}
