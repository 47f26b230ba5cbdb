// provenance: blind round field4
// Momentum buffers allocated on the autodiff device (a common slip): v*mu is fine
// (autodiff * scalar) but v + grad mixes a tracked tensor with the plain gradient.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device ad; dt_tensor *w; dt_tensor *v; } param;

static void param_init(param *p, dt_device ad) {
  p->ad = ad;
  p->w = dt_require_grad(dt_randn(ad, 3, 2, (const int64_t[]){3, 3}));
  p->v = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){3, 3});
}

static void momentum_update(param *p, float lr, float mu) {
  dt_tensor *g = dt_grad(p->w);
  if (!g) return;
  dt_tensor *vm = dt_mul_scalar(p->v, mu);
  dt_tensor *v = dt_add(vm, g); // expect-error: autodiff-expected
  dt_tensor *w = dt_inner(p->w);
  dt_tensor *s = dt_mul_scalar(v, lr);
  dt_tensor *nw = dt_sub(w, s);
  dt_free(p->w);
  p->w = dt_require_grad(dt_from_inner(p->ad, nw));
  dt_free(p->v); p->v = v;
  dt_free(g); dt_free(vm); dt_free(w); dt_free(s); dt_free(nw);
}

int main(void) {
  param p;
  param_init(&p, dt_autodiff(dt_cpu()));
  dt_tensor *x = dt_randn(p.ad, 9, 2, (const int64_t[]){2, 3});
  for (int i = 0; i < 2; i++) {
    dt_tensor *y = dt_matmul(x, p.w);
    dt_tensor *l = dt_mean(y);
    dt_backward(l);
    momentum_update(&p, 0.01f, 0.9f);
    dt_free(y); dt_free(l);
  }
  puts("done");
  return 0;
}
