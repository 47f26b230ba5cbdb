// ckpt.c — tracked tensors are read through dt_inner; restores onto autodiff devices are leaves.
#include "ckpt.h"
int ckpt_save(const dt_tensor *t, ckpt_entry *e) {
  dt_device d = dt_device_of(t);
  e->shape[0] = dt_dim(t, 0);
  e->shape[1] = dt_dim(t, 1);
  if (d.autodiff) {
    dt_tensor *in = dt_inner(t);
    int rc = dt_read_floats(in, e->data, 64);
    dt_free(in);
    return rc;
  }
  return dt_read_floats(t, e->data, 64);
}
dt_tensor *ckpt_restore(const ckpt_entry *e, dt_device dev) {
  dt_tensor *plain = dt_from_floats(dt_inner_device(dev), e->data, 2, e->shape);
  if (!dev.autodiff) return plain;
  dt_tensor *t = dt_require_grad(dt_from_inner(dev, plain));
  dt_free(plain);
  return t;
}
