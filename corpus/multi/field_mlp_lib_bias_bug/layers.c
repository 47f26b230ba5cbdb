// layers.c — dense layer; the bias is built on the base device, the weight on the autodiff one.
#include "layers.h"
void dense_init(dense *d, dt_device dev, int64_t in, int64_t out) {
  d->w = dt_require_grad(dt_randn(dev, 1, 2, (const int64_t[]){in, out}));
  d->b = dt_zeros(dt_inner_device(dev), DT_FLOAT, 1, (const int64_t[]){out});
}
dt_tensor *dense_forward(const dense *d, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, d->w);
  dt_tensor *y = dt_add(h, d->b); // expect-error: autodiff-expected
  dt_free(h);
  return y;
}
