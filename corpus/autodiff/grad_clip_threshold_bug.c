// provenance: blind round field3
// Gradient clipping: the threshold tensor is created on the model's device (autodiff), but
// gradients from dt_grad are plain tensors on the inner device.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *w; dt_tensor *clip; } model;
static dt_tensor *clipped_grad(const model *m) {
  dt_tensor *g = dt_grad(m->w);
  dt_tensor *big = dt_greater(g, m->clip); // expect-error: autodiff-expected
  dt_tensor *c = dt_where(big, m->clip, g);
  dt_free(g); dt_free(big);
  return c;
}
int main(void) {
  model m;
  m.dev = dt_autodiff(dt_cpu());
  m.w = dt_require_grad(dt_randn(m.dev, 1, 2, (const int64_t[]){3, 1}));
  m.clip = dt_full(m.dev, 1.0f, 2, (const int64_t[]){3, 1});
  dt_tensor *x = dt_randn(m.dev, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *l = dt_mean(dt_matmul(x, m.w));
  dt_backward(l);
  dt_tensor *g = clipped_grad(&m);
  printf("%p\n", (void *)g);
  return 0;
}
