#include "optim.h"

dt_device g_state_dev;

void rms_init(rms *o, int64_t n, float lr) {
  o->cache = dt_zeros(g_state_dev, DT_FLOAT, 1, (const int64_t[]){n});
  o->lr = lr;
}

static dt_tensor *decay(const dt_tensor *c) { return dt_mul_scalar(c, 0.9f); }

dt_tensor *rms_update(rms *o, const dt_tensor *param, const dt_tensor *grad) {
  dt_tensor *g2 = dt_mul(grad, grad);
  dt_tensor *g2s = dt_mul_scalar(g2, 0.1f);
  dt_tensor *cd = decay(o->cache);
  dt_tensor *c = dt_add(cd, g2s); // expect-warning: device-mismatch, backend-mismatch
  dt_free(o->cache);
  o->cache = c;
  dt_tensor *p = dt_inner(param);
  dt_tensor *s = dt_mul_scalar(grad, o->lr);
  dt_tensor *np = dt_sub(p, s);
  dt_free(g2); dt_free(g2s); dt_free(cd); dt_free(p); dt_free(s);
  return np;
}
