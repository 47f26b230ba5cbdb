/* model.c — parameters, device moves and the forward pass. */
#include "fed.h"

void model_init(Model *m, dt_device d, uint64_t seed) {
  int64_t s0[2] = {FIN, FHID}, s1[1] = {FHID}, s2[2] = {FHID, FOUT};
  m->p[0] = dt_mul_scalar(dt_randn(d, seed, 2, s0), 0.4f);
  m->p[1] = dt_zeros(d, DT_FLOAT, 1, s1);
  m->p[2] = dt_mul_scalar(dt_randn(d, seed + 1, 2, s2), 0.4f);
}

Model model_to(const Model *m, dt_device d) {
  Model out;
  for (int i = 0; i < NPARAMS; i++) out.p[i] = dt_to_device(m->p[i], d);
  return out;
}

void model_free(Model *m) {
  for (int i = 0; i < NPARAMS; i++) {
    dt_free(m->p[i]);
    m->p[i] = NULL;
  }
}

dt_tensor *model_forward(dt_tensor *const *p, dt_tensor *x) {
  dt_tensor *h = dt_relu(dt_add(dt_matmul(x, p[0]), p[1]));
  dt_tensor *y = dt_matmul(h, p[2]);
  dt_free(h);
  return y;
}
