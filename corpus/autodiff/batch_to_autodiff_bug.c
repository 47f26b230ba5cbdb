// provenance: blind round field2
// The data loader moves each batch to the training device, which is an autodiff device.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device train_dev; int bs; } loader;
static dt_tensor *next_batch(const loader *l, int i) {
  float buf[8];
  for (int k = 0; k < 8; k++) buf[k] = (float)(i + k);
  dt_tensor *host = dt_from_floats(dt_cpu(), buf, 2, (const int64_t[]){l->bs, 8 / l->bs});
  dt_tensor *dev = dt_to_device(host, l->train_dev); // expect-error: autodiff-expected
  dt_free(host);
  return dev;
}
int main(void) {
  loader l = { dt_autodiff(dt_cpu()), 2 };
  dt_tensor *w = dt_require_grad(dt_randn(l.train_dev, 1, 2, (const int64_t[]){4, 1}));
  for (int i = 0; i < 2; i++) {
    dt_tensor *x = next_batch(&l, i);
    dt_tensor *loss = dt_mean(dt_matmul(x, w));
    dt_backward(loss);
  }
  return 0;
}
