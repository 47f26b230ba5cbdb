// provenance: blind round field3
// Mixed-precision style loss scaling: the scale factor is kept as a tensor made on the plain
// inner device (to be shared with the unscaling of gradients) and multiplied into the tracked loss.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device ad; dt_tensor *scale; float scale_value; } scaler;
static void scaler_init(scaler *s, dt_device ad, float v) {
  s->ad = ad;
  s->scale_value = v;
  s->scale = dt_full(dt_inner_device(ad), v, 0, NULL);
}
int main(void) {
  scaler s;
  scaler_init(&s, dt_autodiff(dt_cpu()), 1024.0f);
  dt_tensor *w = dt_require_grad(dt_randn(s.ad, 3, 2, (const int64_t[]){4, 1}));
  dt_tensor *x = dt_randn(s.ad, 4, 2, (const int64_t[]){8, 4});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *loss = dt_mean(p);
  dt_tensor *scaled = dt_mul(loss, s.scale); // expect-error: autodiff-expected
  dt_backward(scaled);
  dt_tensor *g = dt_grad(w);
  dt_tensor *ug = dt_div(g, s.scale);
  printf("%p\n", (void *)ug);
  return 0;
}
