// corpus/interproc/grad_buffer_on_inner_bug.c — an EMA of the weights is kept in a buffer made
// "like" the weight with dt_inner_device(dt_device_of(w)), i.e. on the plain inner device, and
// then blended with the tracked weight directly. Bug: autodiff-expected at the dt_add.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *plain_zeros_like(const dt_tensor *t) {
  return dt_zeros(dt_inner_device(dt_device_of(t)), DT_FLOAT, 2,
                  (const int64_t[]){dt_dim(t, 0), dt_dim(t, 1)});
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 2}));
  dt_tensor *ema = plain_zeros_like(w);
  dt_tensor *part = dt_mul_scalar(w, 0.1f);
  dt_tensor *next = dt_add(ema, part); // expect-error: autodiff-expected
  printf("ema %lld\n", (long long)dt_numel(next));
  return 0;
}
