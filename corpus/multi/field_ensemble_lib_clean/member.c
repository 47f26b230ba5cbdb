// member.c — predictions are computed on the member's device and returned on the host.
#include "member.h"
void member_init(member *m, dt_device dev, uint64_t seed) {
  m->dev = dev;
  m->w = dt_randn(dev, seed, 2, (const int64_t[]){3, 1});
}
dt_tensor *member_predict_host(const member *m, const dt_tensor *x_host) {
  dt_tensor *x = dt_to_device(x_host, m->dev);
  dt_tensor *y = dt_matmul(x, m->w);
  dt_tensor *s = dt_sigmoid(y);
  dt_tensor *h = dt_to_device(s, dt_cpu());
  dt_free(x); dt_free(y); dt_free(s);
  return h;
}
