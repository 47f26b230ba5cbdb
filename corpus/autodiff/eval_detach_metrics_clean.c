// provenance: blind round field3
// Evaluation detaches predictions (still on the autodiff device) and mixes them with tracked
// training tensors and with fresh tensors created on the autodiff device: all legal. Metrics
// go to the host through dt_inner.
#include <dt/dt.h>
#include <stdio.h>
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dt_randn(ad, 3, 2, (const int64_t[]){4, 1});
  dt_tensor *pred = dt_matmul(x, w);
  dt_tensor *loss = dt_mse_loss(pred, y);
  dt_backward(loss);
  dt_tensor *frozen = dt_detach(pred);
  dt_tensor *thr = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *pos = dt_greater(frozen, thr);
  dt_tensor *clipped = dt_where(pos, frozen, thr);
  dt_tensor *gap = dt_sub(clipped, pred);
  dt_tensor *err = dt_mse_loss(dt_detach(gap), y);
  dt_tensor *plain = dt_inner(err);
  dt_tensor *host = dt_to_device(plain, dt_cpu());
  int64_t flags[4]; dt_read_ints(pos, flags, 4);
  float v; dt_read_floats(host, &v, 1);
  printf("%f %lld\n", v, (long long)flags[0]);
  return 0;
}
