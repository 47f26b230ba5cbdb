// provenance: blind round field4
// Dropout-style masking helper: the training path passes the bool mask from dt_greater, the
// augmentation path passes the raw float noise as the condition.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *masked(const dt_tensor *cond, const dt_tensor *x) {
  dt_tensor *z = dt_zeros(dt_device_of(x), DT_FLOAT, 1, (const int64_t[]){dt_dim(x, -1)});
  dt_tensor *r = dt_where(cond, x, z); // expect-error: kind-mismatch
  dt_free(z);
  return r;
}

static dt_tensor *dropout(const dt_tensor *x, uint64_t seed) {
  dt_tensor *noise = dt_randn(dt_device_of(x), seed, 1, (const int64_t[]){dt_dim(x, -1)});
  dt_tensor *thr = dt_zeros(dt_device_of(x), DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *keep = dt_greater(noise, thr);
  dt_tensor *r = masked(keep, x);
  dt_free(noise); dt_free(thr); dt_free(keep);
  return r;
}

static dt_tensor *augment(const dt_tensor *x, uint64_t seed) {
  dt_tensor *noise = dt_randn(dt_device_of(x), seed, 1, (const int64_t[]){dt_dim(x, -1)});
  dt_tensor *r = masked(noise, x);
  dt_free(noise);
  return r;
}

int main(void) {
  dt_tensor *x = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){2, 5});
  dt_tensor *a = dropout(x, 2);
  dt_tensor *b = augment(a, 3);
  printf("%lld\n", (long long)dt_numel(b));
  return 0;
}
