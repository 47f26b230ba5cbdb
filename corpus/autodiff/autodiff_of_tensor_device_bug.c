// provenance: blind round field
// The autodiff device is derived from a tensor that is already tracked.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *make_bias_like(const dt_tensor *w) {
  dt_device ad = dt_autodiff(dt_device_of(w)); // expect-error: autodiff-nested
  return dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){dt_dim(w, 1)}));
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){4, 2}));
  dt_tensor *b = make_bias_like(w);
  printf("%p\n", (void *)b);
  return 0;
}
