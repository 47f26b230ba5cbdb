// One helper called on two devices, each call consistent in itself.
#include <dt/dt.h>
static dt_tensor *affine(const dt_tensor *x, const dt_tensor *w, const dt_tensor *b) {
  dt_tensor *h = dt_matmul(x, w);
  dt_tensor *y = dt_add(h, b);
  dt_free(h);
  return y;
}
static dt_tensor *run(dt_device dev) {
  dt_tensor *x = dt_randn(dev, 1, 2, (const int64_t[]){2, 3});
  dt_tensor *w = dt_randn(dev, 2, 2, (const int64_t[]){3, 3});
  dt_tensor *b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){3});
  return affine(x, w, b);
}
int main(void) {
  dt_tensor *a = run(dt_cpu());
  dt_tensor *b = run(dt_sim(1));
  dt_tensor *c = run(dt_autodiff(dt_sim(0)));
  dt_tensor *d = dt_to_device(b, dt_cpu());
  dt_tensor *e = dt_add(a, d);
  dt_free(c);
  dt_free(e);
  return 0;
}
