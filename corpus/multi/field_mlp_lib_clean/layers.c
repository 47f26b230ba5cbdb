// layers.c — dense layer init/forward; every tensor on the device the caller passes.
#include "layers.h"
void dense_init(dense *d, dt_device dev, int64_t in, int64_t out, uint64_t seed) {
  dt_tensor *w = dt_randn(dev, seed, 2, (const int64_t[]){in, out});
  d->w = dt_mul_scalar(w, 0.3f);
  dt_free(w);
  d->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){out});
}
dt_tensor *dense_forward(const dense *d, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, d->w);
  dt_tensor *y = dt_add(h, d->b);
  dt_free(h);
  return y;
}
void dense_free(dense *d) { dt_free(d->w); dt_free(d->b); }
