// provenance: blind round d11
#include "model.h"

static dt_tensor *leaf(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return dt_require_grad(t);
}

void model_init(nt_model *m, dt_device dev) {
  m->ad = dt_autodiff(dev);
  int64_t s1[2] = {NT_FEAT, NT_HID}, sb[2] = {1, NT_HID}, s2[2] = {NT_HID, 1};
  dt_tensor *r1 = dt_randn(dev, 5, 2, s1);
  dt_tensor *r2 = dt_randn(dev, 6, 2, s2);
  m->w1 = leaf(m->ad, dt_mul_scalar(r1, 0.3f));
  m->b1 = leaf(m->ad, dt_zeros(dev, DT_FLOAT, 2, sb));
  m->w2 = leaf(m->ad, dt_mul_scalar(r2, 0.3f));
  dt_free(r1);
  dt_free(r2);
}

dt_tensor *model_forward(const nt_model *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w1);
  dt_tensor *hb = dt_add(h, m->b1);
  dt_tensor *a = dt_relu(hb);
  dt_tensor *y = dt_matmul(a, m->w2);
  dt_free(h);
  dt_free(hb);
  dt_free(a);
  return y;
}

static void update(dt_device ad, dt_tensor **p, float lr) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  dt_tensor *in = dt_inner(*p);
  dt_tensor *st = dt_mul_scalar(g, lr);
  dt_free(*p);
  *p = leaf(ad, dt_sub(in, st));
  dt_free(in);
  dt_free(st);
  dt_free(g);
}

void model_sgd(nt_model *m, float lr) {
  update(m->ad, &m->w1, lr);
  update(m->ad, &m->b1, lr);
  update(m->ad, &m->w2, lr);
}

void model_free(nt_model *m) {
  dt_free(m->w1);
  dt_free(m->b1);
  dt_free(m->w2);
}
