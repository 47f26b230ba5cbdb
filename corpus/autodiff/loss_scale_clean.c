// provenance: blind round field3
// Loss scaling done right: scale the tracked loss with dt_mul_scalar, unscale the plain
// gradients with a plain scale tensor on the inner device.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device ad; dt_tensor *inv_scale; float scale_value; } scaler;
static void scaler_init(scaler *s, dt_device ad, float v) {
  s->ad = ad;
  s->scale_value = v;
  s->inv_scale = dt_full(dt_inner_device(ad), 1.0f / v, 0, NULL);
}
int main(void) {
  scaler s;
  scaler_init(&s, dt_autodiff(dt_sim(1)), 1024.0f);
  dt_tensor *w = dt_require_grad(dt_randn(s.ad, 3, 2, (const int64_t[]){4, 1}));
  dt_tensor *x = dt_randn(s.ad, 4, 2, (const int64_t[]){8, 4});
  for (int step = 0; step < 2; step++) {
    dt_tensor *p = dt_matmul(x, w);
    dt_tensor *loss = dt_mean(p);
    dt_tensor *scaled = dt_mul_scalar(loss, s.scale_value);
    dt_backward(scaled);
    dt_tensor *g = dt_grad(w);
    dt_tensor *ug = dt_mul(g, s.inv_scale);
    dt_tensor *wi = dt_inner(w);
    dt_tensor *step_t = dt_mul_scalar(ug, 0.01f);
    dt_tensor *nw = dt_sub(wi, step_t);
    w = dt_require_grad(dt_from_inner(s.ad, nw));
    dt_free(p); dt_free(loss); dt_free(scaled); dt_free(g); dt_free(ug); dt_free(wi); dt_free(step_t);
  }
  float out[4]; dt_tensor *wi = dt_inner(w); dt_read_floats(wi, out, 4);
  printf("%f\n", out[0]);
  return 0;
}
