// provenance: blind round field
// L2 weight decay adds the tracked parameter to its plain gradient.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *decayed_grad(const dt_tensor *param, const dt_tensor *grad, float wd) {
  dt_tensor *pw = dt_mul_scalar(param, wd);
  dt_tensor *g = dt_add(grad, pw); // expect-error: autodiff-expected
  dt_free(pw);
  return g;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_full(ad, 0.3f, 2, (const int64_t[]){4, 1}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *l = dt_mean(p);
  dt_backward(l);
  dt_tensor *g = dt_grad(w);
  dt_tensor *gd = decayed_grad(w, g, 1e-4f);
  dt_tensor *in = dt_inner(w);
  dt_tensor *nw = dt_sub(in, gd);
  printf("%p\n", (void *)nw);
  return 0;
}
