#include "model.h"

#include <math.h>

void model_create(Model *m, dt_device plain, const int64_t *widths, int n_layers) {
  m->ad = dt_autodiff(plain);
  m->n_params = 0;
  for (int l = 0; l < n_layers && m->n_params + 2 <= MODEL_MAX_PARAMS; l++) {
    int wi = m->n_params++, bi = m->n_params++;
    m->rank[wi] = 2;
    m->shape[wi][0] = widths[l];
    m->shape[wi][1] = widths[l + 1];
    m->rank[bi] = 1;
    m->shape[bi][0] = widths[l + 1];
    m->shape[bi][1] = 0;
    dt_tensor *r = dt_randn(plain, 1000u + (uint64_t)l, 2, m->shape[wi]);
    dt_tensor *s = dt_mul_scalar(r, 1.0f / sqrtf((float)widths[l]));
    m->p[wi] = dt_require_grad(dt_from_inner(m->ad, s));
    dt_tensor *z = dt_zeros(plain, DT_FLOAT, 1, m->shape[bi]);
    m->p[bi] = dt_require_grad(dt_from_inner(m->ad, z));
    dt_free(r);
    dt_free(s);
    dt_free(z);
  }
}

void model_destroy(Model *m) {
  for (int i = 0; i < m->n_params; i++) dt_free(m->p[i]);
  m->n_params = 0;
}

dt_tensor *model_forward(const Model *m, const dt_tensor *x) {
  dt_tensor *h = dt_detach(x);
  for (int i = 0; i + 1 < m->n_params; i += 2) {
    dt_tensor *z = dt_matmul(h, m->p[i]);
    dt_tensor *a = dt_add(z, m->p[i + 1]);
    dt_free(z);
    dt_free(h);
    if (i + 2 < m->n_params) {
      h = dt_sigmoid(a);
      dt_free(a);
    } else {
      h = a;
    }
  }
  return h;
}

void model_set(Model *m, int i, dt_tensor *value) {
  dt_free(m->p[i]);
  m->p[i] = dt_require_grad(dt_from_inner(m->ad, value));
}

void model_to(Model *m, dt_device plain) {
  dt_device ad = dt_autodiff(plain);
  for (int i = 0; i < m->n_params; i++) {
    dt_tensor *in = dt_inner(m->p[i]);
    dt_tensor *mv = dt_to_device(in, plain);
    dt_free(m->p[i]);
    m->p[i] = dt_require_grad(dt_from_inner(ad, mv));
    dt_free(in);
    dt_free(mv);
  }
  m->ad = ad;
}
