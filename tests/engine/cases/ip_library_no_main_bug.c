// Library code with no main: parameters are unknown, but what a function does with them
// can still be certain to fail (two tensors created on the same unknown device, one float and
// one int), while mixing a parameter device with the host may be fine (no finding).
#include <dt/dt.h>
dt_tensor *counts_plus_weights(dt_device dev, const int64_t *ids, int n) {
  dt_tensor *w = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){n});
  dt_tensor *c = dt_from_ints(dev, ids, 1, (const int64_t[]){n});
  return dt_add(w, c); // expect-error: kind-mismatch
}
dt_tensor *maybe_fine(dt_device dev, const dt_tensor *x) {
  dt_tensor *bias = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *y = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *s = dt_add(y, bias);
  dt_tensor *t = dt_add(x, s);
  dt_tensor *u = dt_sub(x, dt_relu(x));
  dt_free(s);
  dt_free(t);
  return u;
}
dt_tensor *train_step(dt_device dev, dt_tensor *w) {
  dt_tensor *tracked = dt_from_inner(dt_autodiff(dev), w);
  dt_tensor *loss = dt_mean(tracked);
  dt_backward(loss);
  dt_tensor *g = dt_grad(tracked);
  dt_tensor *upd = dt_sub(tracked, g); // expect-error: autodiff-expected
  return upd;
}
