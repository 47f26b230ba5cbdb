// provenance: blind round field2
// New tensors are created on dt_device_of(existing) and grads on the inner device.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *load_batch(int which) {
  dt_device d = which ? dt_sim(1) : dt_cpu();
  return dt_randn(d, 3, 2, (const int64_t[]){4, 3});
}
static dt_tensor *noise_like(const dt_tensor *t) {
  return dt_randn(dt_device_of(t), 9, 2, (const int64_t[]){dt_dim(t, 0), dt_dim(t, 1)});
}
int main(int argc, char **argv) {
  (void)argv;
  dt_tensor *x = load_batch(argc > 1);
  dt_tensor *n = noise_like(x);
  dt_tensor *xn = dt_add(x, n);
  dt_device ad = dt_autodiff(dt_device_of(xn));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 5, 2, (const int64_t[]){3, 1}));
  dt_tensor *xa = dt_from_inner(ad, xn);
  dt_tensor *loss = dt_mean(dt_matmul(xa, w));
  dt_backward(loss);
  dt_tensor *g = dt_grad(w);
  dt_tensor *step = dt_zeros(dt_inner_device(dt_device_of(w)), DT_FLOAT, 2, (const int64_t[]){3, 1});
  dt_tensor *s2 = dt_add(step, g);
  float v[3];
  dt_read_floats(s2, v, 3);
  printf("%f\n", v[0]);
  return 0;
}
