// provenance: blind round field3
// Dropout with the mask drawn on the activation's own (autodiff) device: the bool mask is
// untracked but on the same device, so dt_where accepts it.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *dropout(const dt_tensor *h, uint64_t seed) {
  dt_device dev = dt_device_of(h);
  const int64_t shape[2] = {dt_dim(h, 0), dt_dim(h, 1)};
  dt_tensor *r = dt_randn(dev, seed, 2, shape);
  dt_tensor *z = dt_zeros(dev, DT_FLOAT, 2, shape);
  dt_tensor *keep = dt_greater(r, z);
  dt_tensor *out = dt_where(keep, h, z);
  dt_free(r); dt_free(z); dt_free(keep);
  return out;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_device ad = argc > 1 ? dt_autodiff(dt_sim(1)) : dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 4}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){2, 3});
  dt_tensor *h = dt_matmul(x, w);
  dt_tensor *d = dropout(h, 5);
  dt_tensor *l = dt_mean(d);
  dt_backward(l);
  dt_tensor *g = dt_grad(w);
  float v[12]; dt_read_floats(g, v, 12);
  printf("%f\n", v[0]);
  return 0;
}
