// corpus/basics/precedence_autodiff_ordinal_bug.c — two autodiff devices on the same inner
// backend but different ordinals: data-parallel replicas whose losses are summed without
// gathering them on one device first. Bug: dt_add of autodiff<sim:0> and autodiff<sim:1>
// (device-mismatch: same backend, ordinals differ, autodiff or not).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *replica_loss(dt_device dev, uint64_t seed) {
  const int64_t shape[2] = {4, 2};
  dt_tensor *w = dt_require_grad(dt_randn(dev, seed, 2, shape));
  dt_tensor *target = dt_zeros(dev, DT_FLOAT, 2, shape);
  dt_tensor *loss = dt_mse_loss(w, target);
  dt_free(target);
  dt_free(w);
  return loss;
}

int main(void) {
  dt_tensor *l0 = replica_loss(dt_autodiff(dt_sim(0)), 100);
  dt_tensor *l1 = replica_loss(dt_autodiff(dt_sim(1)), 200);
  dt_tensor *total = dt_add(l0, l1); // expect-error: device-mismatch
  dt_backward(total);
  dt_free(total);
  dt_free(l1);
  dt_free(l0);
  return 0;
}
