// corpus/flow/bool_mask_multiply_bug.c — dropout-style masking written as a multiplication by
// the bool mask that dt_greater returns (as one would in NumPy); arithmetic does not accept
// bool tensors. Bug: kind-mismatch at dt_mul (use dt_where).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *dropout(const dt_tensor *x, uint64_t seed, float keep) {
  dt_tensor *noise = dt_randn(dt_device_of(x), seed, 1, (const int64_t[]){dt_numel(x)});
  dt_tensor *thr = dt_full(dt_device_of(x), 1.0f - 2.0f * keep, 1, (const int64_t[]){dt_numel(x)});
  dt_tensor *keep_mask = dt_greater(noise, thr);
  dt_tensor *y = dt_mul(x, keep_mask); // expect-error: kind-mismatch
  dt_free(keep_mask);
  dt_free(thr);
  dt_free(noise);
  return y;
}

int main(void) {
  dt_tensor *h = dt_randn(dt_sim(0), 1, 1, (const int64_t[]){16});
  dt_tensor *d = dropout(h, 7, 0.8f);
  printf("%lld\n", (long long)dt_numel(d));
  dt_free(d);
  dt_free(h);
  return 0;
}
