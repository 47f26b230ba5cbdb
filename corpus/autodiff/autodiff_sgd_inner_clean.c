// provenance: blind round field2
// Manual SGD: grads read back, update on the inner tensor, re-wrapped with from_inner.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device ad; dt_tensor *w; float lr; } sgd_model;
static void sgd_step(sgd_model *m) {
  dt_tensor *g = dt_grad(m->w);
  if (!g) return;
  dt_tensor *wi = dt_inner(m->w);
  dt_tensor *dg = dt_mul_scalar(g, -m->lr);
  dt_tensor *nw = dt_add(wi, dg);
  dt_tensor *fresh = dt_require_grad(dt_from_inner(m->ad, nw));
  dt_free(m->w); dt_free(wi); dt_free(dg); dt_free(g); dt_free(nw);
  m->w = fresh;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_device base = argc > 1 ? dt_sim(1) : dt_cpu();
  sgd_model m = { dt_autodiff(base), NULL, 0.1f };
  m.w = dt_require_grad(dt_randn(m.ad, 2, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_ones(m.ad, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dt_zeros(m.ad, DT_FLOAT, 2, (const int64_t[]){4, 1});
  for (int step = 0; step < 3; step++) {
    dt_tensor *p = dt_matmul(x, m.w);
    dt_tensor *l = dt_mse_loss(p, y);
    dt_backward(l);
    float v; dt_read_floats(l, &v, 1);
    printf("%d %f\n", step, v);
    dt_free(p); dt_free(l);
    sgd_step(&m);
  }
  return 0;
}
