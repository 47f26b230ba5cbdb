// provenance: blind round field2
// Dropout done with dt_where on the bool mask; zeros re-derived from the activation's device.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *dropout(const dt_tensor *h, float p, uint64_t seed) {
  dt_device d = dt_device_of(h);
  int64_t s[2] = {dt_dim(h, 0), dt_dim(h, 1)};
  dt_tensor *r = dt_randn(d, seed, 2, s);
  dt_tensor *thr = dt_full(d, p, 1, (const int64_t[]){1});
  dt_tensor *keep = dt_greater(r, thr);
  dt_tensor *z = dt_zeros(d, DT_FLOAT, 2, s);
  dt_tensor *out = dt_where(keep, h, z);
  dt_free(r); dt_free(thr); dt_free(keep); dt_free(z);
  return out;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_device d = argc > 1 ? dt_autodiff(dt_sim(0)) : dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(d, 1, 2, (const int64_t[]){4, 4}));
  dt_tensor *h = dt_ones(d, DT_FLOAT, 2, (const int64_t[]){4, 4});
  dt_tensor *y = dropout(dt_matmul(h, w), 0.1f, 3);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  dt_tensor *g = dt_grad(w);
  float v[16]; dt_read_floats(g, v, 16);
  printf("%f\n", v[0]);
  return 0;
}
