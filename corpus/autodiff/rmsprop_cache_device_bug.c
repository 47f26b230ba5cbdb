// provenance: blind round field4
// RMSProp: the squared-gradient cache is created on sim:0 by an optimizer that was
// configured for the default device, while the model trains on autodiff<sim:1>.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; float rho, lr, eps; } rms_cfg;
typedef struct { rms_cfg cfg; dt_tensor *cache; } rmsprop;

static const rms_cfg DEFAULT_RMS = { { DT_BACKEND_SIM, 0, 0 }, 0.9f, 0.01f, 1e-6f };

static void rms_init(rmsprop *o, const int64_t *shape) {
  o->cfg = DEFAULT_RMS;
  o->cache = dt_zeros(o->cfg.dev, DT_FLOAT, 2, shape);
}

static dt_tensor *rms_direction(rmsprop *o, const dt_tensor *g) {
  dt_tensor *g2 = dt_mul(g, g);
  dt_tensor *a = dt_mul_scalar(o->cache, o->cfg.rho);
  dt_tensor *b = dt_mul_scalar(g2, 1.0f - o->cfg.rho);
  dt_tensor *c = dt_add(a, b); // expect-error: device-mismatch
  dt_free(o->cache);
  o->cache = c;
  dt_free(g2); dt_free(a); dt_free(b);
  return dt_mul_scalar(g, o->cfg.lr);
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  const int64_t shape[2] = {4, 2};
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, shape));
  rmsprop o;
  rms_init(&o, shape);
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){3, 4});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  dt_tensor *g = dt_grad(w);
  dt_tensor *d = rms_direction(&o, g);
  printf("%lld\n", (long long)dt_numel(d));
  return 0;
}
