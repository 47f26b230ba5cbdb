// provenance: blind round field5
// A lazily initialised static device (the classic "default device" singleton) used by every
// allocation; the second caller gets the cached value.
#include <dt/dt.h>
#include <stdio.h>

static dt_device default_device(void) {
  static dt_device cached;
  static int ready;
  if (!ready) {
    cached = dt_sim(1);
    ready = 1;
  }
  return cached;
}

static dt_tensor *param(int rows, int cols, uint64_t seed) {
  return dt_randn(default_device(), seed, 2, (const int64_t[]){rows, cols});
}

int main(void) {
  dt_tensor *w1 = param(3, 4, 1);
  dt_tensor *w2 = param(4, 2, 2);
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 2, (const int64_t[]){5, 3});
  dt_tensor *h = dt_matmul(x, w1);
  dt_tensor *y = dt_matmul(h, w2);
  printf("%lld\n", (long long)dt_numel(y));
  dt_free(y); dt_free(h); dt_free(x); dt_free(w2); dt_free(w1);
  return 0;
}
