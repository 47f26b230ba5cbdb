// loss.c — the target is built on the prediction's inner device (plain), not its device.
#include "loss.h"
dt_tensor *regression_loss(const dt_tensor *pred, const float *target, int n) {
  dt_device d = dt_inner_device(dt_device_of(pred));
  dt_tensor *t = dt_from_floats(d, target, 2, (const int64_t[]){n, 1});
  dt_tensor *l = dt_mse_loss(pred, t); // expect-error: autodiff-expected
  dt_free(t);
  return l;
}
