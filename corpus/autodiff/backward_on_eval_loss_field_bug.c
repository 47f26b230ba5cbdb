// provenance: blind round field
// The validation loss is computed on plain copies of the weights, then backward is called on it.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *val_loss(dt_tensor *w, const dt_tensor *x, const dt_tensor *y) {
  dt_tensor *wp = dt_inner(w);
  dt_tensor *p = dt_matmul(x, wp);
  dt_tensor *l = dt_mse_loss(p, y);
  dt_free(wp); dt_free(p);
  return l;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_full(ad, 0.5f, 2, (const int64_t[]){2, 1}));
  dt_tensor *xv = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 2});
  dt_tensor *yv = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *l = val_loss(w, xv, yv);
  float v;
  dt_read_floats(l, &v, 1);
  printf("val loss %.3f\n", v);
  dt_backward(l); // expect-error: autodiff-expected
  dt_free(w); dt_free(xv); dt_free(yv); dt_free(l);
  return 0;
}
