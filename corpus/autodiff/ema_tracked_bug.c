// provenance: blind round field3
// Exponential moving average of the weights kept on the host; the update multiplies the tracked
// weight instead of its inner primitive, then adds it to the host shadow.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_tensor *w; dt_tensor *shadow; float decay; } ema_model;
static void ema_update(ema_model *m) {
  dt_tensor *keep = dt_mul_scalar(m->shadow, m->decay);
  dt_tensor *fresh = dt_mul_scalar(m->w, 1.0f - m->decay);
  dt_tensor *host = dt_to_device(fresh, dt_cpu()); // expect-error: autodiff-expected
  dt_tensor *next = dt_add(keep, host);
  dt_free(keep); dt_free(fresh); dt_free(host); dt_free(m->shadow);
  m->shadow = next;
}
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  ema_model m;
  m.w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){4, 4}));
  m.shadow = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 4});
  m.decay = 0.9f;
  ema_update(&m);
  printf("%p\n", (void *)m.shadow);
  return 0;
}
