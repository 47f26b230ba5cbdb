// corpus/autodiff/target_on_inner_device_bug.c — the targets are built on the plain inner
// device of the training device (dt_inner_device), while the predictions are tracked.
// Bug: dt_mse_loss of autodiff and plain operands (autodiff-expected).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device train = dt_autodiff(dt_sim(0));
  dt_device data = dt_inner_device(train);
  dt_tensor *w = dt_require_grad(dt_randn(train, 1, 2, (const int64_t[]){4, 1}));
  dt_tensor *x = dt_randn(train, 2, 2, (const int64_t[]){6, 4});
  dt_tensor *y = dt_zeros(data, DT_FLOAT, 2, (const int64_t[]){6, 1});
  dt_tensor *pred = dt_matmul(x, w);
  dt_tensor *loss = dt_mse_loss(pred, y); // expect-error: autodiff-expected
  dt_backward(loss);
  dt_free(loss);
  dt_free(pred);
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
