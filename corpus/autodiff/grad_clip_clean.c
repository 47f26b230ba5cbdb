// provenance: blind round field
// Gradient clipping by global norm on the inner device before the SGD update.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>

#define NP 2

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *params[NP];
  params[0] = dt_require_grad(dt_full(ad, 3.0f, 2, (const int64_t[]){2, 2}));
  params[1] = dt_require_grad(dt_full(ad, 4.0f, 1, (const int64_t[]){2}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *h = dt_matmul(x, params[0]);
  dt_tensor *o = dt_add(h, params[1]);
  dt_tensor *loss = dt_sum(o);
  dt_backward(loss);
  dt_tensor *grads[NP];
  float sq = 0;
  for (int i = 0; i < NP; i++) {
    grads[i] = dt_grad(params[i]);
    dt_tensor *g2 = dt_mul(grads[i], grads[i]);
    dt_tensor *s = dt_sum(g2);
    float v;
    dt_read_floats(s, &v, 1);
    sq += v;
    dt_free(g2); dt_free(s);
  }
  float norm = sqrtf(sq), max_norm = 1.0f;   /* grads all ones: 6 elements, norm sqrt(6) */
  float scale = norm > max_norm ? max_norm / norm : 1.0f;
  for (int i = 0; i < NP; i++) {
    dt_tensor *cg = dt_mul_scalar(grads[i], scale);
    dt_tensor *in = dt_inner(params[i]);
    dt_tensor *nw = dt_sub(in, cg);
    dt_free(params[i]);
    params[i] = dt_require_grad(dt_from_inner(ad, nw));
    dt_free(cg); dt_free(in); dt_free(nw); dt_free(grads[i]);
  }
  float w[4];
  dt_tensor *wi = dt_inner(params[0]);
  dt_read_floats(wi, w, 4);
  printf("norm %.4f w00 %.4f (expect %.4f)\n", norm, w[0], 3.0f - 1.0f / sqrtf(6.0f));
  int ok = fabsf(w[0] - (3.0f - 1.0f / sqrtf(6.0f))) < 1e-5f;
  dt_free(wi); dt_free(x); dt_free(h); dt_free(o); dt_free(loss);
  for (int i = 0; i < NP; i++) dt_free(params[i]);
  return ok ? 0 : 1;
}
