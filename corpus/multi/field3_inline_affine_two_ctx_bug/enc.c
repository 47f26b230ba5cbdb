#include "ops.h"
dt_tensor *encode(const dt_tensor *x) {
  static dt_tensor *w, *b;
  if (!w) {
    w = dt_randn(dt_sim(1), 1, 2, (const int64_t[]){4, 3});
    b = dt_zeros(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){3});
  }
  return affine(x, w, b);
}
