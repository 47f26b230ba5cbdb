// provenance: blind round field
// Weight update forgets dt_inner: dt_from_inner is given the tracked parameter expression.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 2}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){1, 2});
  for (int it = 0; it < 2; it++) {
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *l = dt_sum(y);
    dt_backward(l);
    dt_tensor *g = dt_grad(w);
    dt_tensor *decayed = dt_mul_scalar(w, 0.99f);
    dt_tensor *nw = dt_from_inner(ad, decayed); // expect-error: autodiff-nested
    dt_free(w);
    w = dt_require_grad(nw);
    dt_free(y); dt_free(l); dt_free(g); dt_free(decayed);
  }
  dt_free(w); dt_free(x);
  return 0;
}
