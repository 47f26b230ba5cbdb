// provenance: blind round field3
// EMA of autodiff weights kept on another device (sim:1): the update goes through dt_inner and
// dt_to_device between plain devices; evaluation rewraps the shadow with dt_from_inner.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device ad; dt_tensor *w; dt_tensor *shadow; } model;
static void ema_update(model *m, float decay) {
  dt_tensor *wi = dt_inner(m->w);
  dt_tensor *moved = dt_to_device(wi, dt_sim(1));
  dt_tensor *a = dt_mul_scalar(m->shadow, decay);
  dt_tensor *b = dt_mul_scalar(moved, 1.0f - decay);
  dt_free(m->shadow);
  m->shadow = dt_add(a, b);
  dt_free(wi); dt_free(moved); dt_free(a); dt_free(b);
}
int main(void) {
  model m;
  m.ad = dt_autodiff(dt_sim(0));
  m.w = dt_require_grad(dt_randn(m.ad, 1, 2, (const int64_t[]){4, 4}));
  m.shadow = dt_zeros(dt_sim(1), DT_FLOAT, 2, (const int64_t[]){4, 4});
  dt_tensor *x = dt_randn(m.ad, 2, 2, (const int64_t[]){2, 4});
  for (int step = 0; step < 3; step++) {
    dt_tensor *y = dt_matmul(x, m.w);
    dt_tensor *l = dt_mean(y);
    dt_backward(l);
    dt_tensor *g = dt_grad(m.w);
    dt_tensor *wi = dt_inner(m.w);
    dt_tensor *upd = dt_mul_scalar(g, 0.1f);
    dt_tensor *nw = dt_sub(wi, upd);
    dt_free(m.w);
    m.w = dt_require_grad(dt_from_inner(m.ad, nw));
    ema_update(&m, 0.9f);
    dt_free(y); dt_free(l); dt_free(g); dt_free(wi); dt_free(upd); dt_free(nw);
  }
  dt_tensor *back = dt_to_device(m.shadow, dt_inner_device(m.ad));
  dt_tensor *ew = dt_from_inner(m.ad, back);
  dt_tensor *ey = dt_matmul(dt_detach(x), ew);
  printf("%lld\n", (long long)dt_numel(ey));
  return 0;
}
