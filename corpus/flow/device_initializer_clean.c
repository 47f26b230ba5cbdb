// corpus/flow/device_initializer_clean.c — devices spelled as designated initializers and
// compound literals that denote the same device as dt_sim(0) (the omitted `autodiff` field is
// 0), plus an autodiff device built by field store from a plain one. Clean: the analyzer must
// see that {.backend = DT_BACKEND_SIM, .ordinal = 0} IS sim:0.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device a = {.backend = DT_BACKEND_SIM, .ordinal = 0};
  dt_device b = dt_sim(0);
  dt_device c = (dt_device){.ordinal = 0, .backend = DT_BACKEND_SIM};
  dt_tensor *x = dt_randn(a, 1, 2, (const int64_t[]){2, 3});
  dt_tensor *w = dt_randn(b, 2, 2, (const int64_t[]){3, 2});
  dt_tensor *bias = dt_zeros(c, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *y0 = dt_matmul(x, w);
  dt_tensor *y = dt_add(y0, bias);

  dt_device train = b;
  train.autodiff = 1; /* autodiff<sim:0>, the same as dt_autodiff(dt_sim(0)) */
  dt_tensor *p = dt_require_grad(dt_randn(train, 3, 1, (const int64_t[]){2}));
  dt_tensor *q = dt_ones(dt_autodiff(dt_sim(0)), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *l = dt_mse_loss(p, q);
  dt_backward(l);
  dt_tensor *g = dt_grad(p);
  dt_tensor *g2 = dt_add(g, bias); /* a gradient is plain, on the inner device sim:0 */

  printf("y %lld, g2 %lld\n", (long long)dt_numel(y), (long long)dt_numel(g2));
  dt_tensor *all[] = {g2, g, l, q, p, y, y0, bias, w, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
