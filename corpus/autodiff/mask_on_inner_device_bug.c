// provenance: blind round field3
// Dropout: the keep-mask is drawn on the plain inner device (to avoid tracking it) and applied
// to tracked activations with dt_where.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *dropout(const dt_tensor *h, uint64_t seed) {
  dt_device inner = dt_inner_device(dt_device_of(h));
  dt_tensor *r = dt_randn(inner, seed, 2, (const int64_t[]){dt_dim(h, 0), dt_dim(h, 1)});
  dt_tensor *z = dt_zeros(inner, DT_FLOAT, 2, (const int64_t[]){dt_dim(h, 0), dt_dim(h, 1)});
  dt_tensor *keep = dt_greater(r, z);
  dt_tensor *zeros_ad = dt_zeros(dt_device_of(h), DT_FLOAT, 0, NULL);
  dt_tensor *out = dt_where(keep, h, zeros_ad); // expect-error: autodiff-expected
  dt_free(r); dt_free(z); dt_free(keep); dt_free(zeros_ad);
  return out;
}
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 4}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){2, 3});
  dt_tensor *h = dt_matmul(x, w);
  dt_tensor *d = dropout(h, 5);
  printf("%p\n", (void *)d);
  return 0;
}
