// Adam optimizer: moment buffers per parameter; the update works on inner tensors.
#include "nn.h"
#include <stdlib.h>
static dt_tensor *zeros_like(const dt_tensor *t) {
  int64_t s[2] = {dt_dim(t, 0), dt_rank(t) > 1 ? dt_dim(t, 1) : 1};
  return dt_zeros(dt_device_of(t), DT_FLOAT, dt_rank(t), s);
}
int adam_create(adam *o, const model *m, float lr) {
  o->n = 2 * m->n; o->lr = lr; o->b1 = 0.9f; o->b2 = 0.999f;
  o->m = calloc((size_t)o->n, sizeof *o->m);
  o->v = calloc((size_t)o->n, sizeof *o->v);
  for (int i = 0; i < m->n; i++) {
    o->m[2 * i] = zeros_like(m->layers[i].w); o->v[2 * i] = zeros_like(m->layers[i].w);
    o->m[2 * i + 1] = zeros_like(m->layers[i].b); o->v[2 * i + 1] = zeros_like(m->layers[i].b);
  }
  return 0;
}
static void update_one(adam *o, int k, dt_tensor **p) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  dt_tensor *m1 = dt_mul_scalar(o->m[k], o->b1);
  dt_tensor *g1 = dt_mul_scalar(g, 1.0f - o->b1);
  dt_tensor *nm = dt_add(m1, g1); // expect-error: autodiff-expected
  dt_free(o->m[k]); o->m[k] = nm;
  dt_tensor *step = dt_mul_scalar(nm, -o->lr);
  dt_tensor *pi = dt_inner(*p);
  dt_tensor *np = dt_add(pi, step);
  dt_tensor *fresh = dt_require_grad(dt_from_inner(dt_device_of(*p), np));
  dt_free(*p); *p = fresh;
  dt_free(g); dt_free(m1); dt_free(g1); dt_free(step); dt_free(pi); dt_free(np);
}
void adam_step(adam *o, model *m) {
  for (int i = 0; i < m->n; i++) {
    update_one(o, 2 * i, &m->layers[i].w);
    update_one(o, 2 * i + 1, &m->layers[i].b);
  }
}
