// corpus/flow/early_return_clean.c — a preprocessing helper returns early (NULL) for an empty
// batch and otherwise returns the standardized batch on the caller's device; the caller checks
// for NULL. Clean: both returns are consistent with the caller's use.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *standardize(const float *rows, int n, dt_device dev) {
  if (n == 0) return NULL;
  dt_tensor *x = dt_from_floats(dev, rows, 2, (const int64_t[]){n, 2});
  dt_tensor *mu = dt_mean(x);
  dt_tensor *centered = dt_sub(x, mu);
  dt_free(mu);
  dt_free(x);
  return centered;
}

int main(void) {
  static const float rows[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 1});
  for (int n = 0; n <= 4; n += 2) {
    dt_tensor *x = standardize(rows, n, dev);
    if (!x) {
      printf("empty batch skipped\n");
      continue;
    }
    dt_tensor *y = dt_matmul(x, w);
    printf("batch of %d -> %lld outputs\n", n, (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  }
  dt_free(w);
  return 0;
}
