#include "train.h"
dt_tensor *ckpt_save(const dt_tensor *plain) { return dt_to_device(plain, dt_cpu()); }
dt_tensor *ckpt_restore(const dt_tensor *host, dt_device ad) {
  dt_tensor *dev = dt_to_device(host, dt_inner_device(ad));
  dt_tensor *t = dt_from_inner(ad, dev);
  dt_free(dev);
  return dt_require_grad(t);
}
