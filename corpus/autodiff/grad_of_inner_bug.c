// provenance: blind round field
// Logging gradient norms: the gradient is requested from the plain inner handle.
#include <dt/dt.h>
#include <stdio.h>

static float grad_norm2(const dt_tensor *p) {
  dt_tensor *g = dt_grad(p); // expect-error: autodiff-expected
  dt_tensor *g2 = dt_mul(g, g);
  dt_tensor *s = dt_sum(g2);
  float v = 0;
  dt_read_floats(s, &v, 1);
  dt_free(g); dt_free(g2); dt_free(s);
  return v;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){3, 3}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  dt_tensor *w_plain = dt_inner(w);
  printf("|g|^2 = %.4f\n", grad_norm2(w_plain));
  return 0;
}
