// provenance: blind round field4
// Manual SGD that forgets to rewrap: the updated weights are plain (dt_inner - lr*g) and the
// code calls dt_require_grad on them directly. Fails at the first update.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device ad; dt_tensor *w; float lr; } trainer;

static void update(trainer *t) {
  dt_tensor *g = dt_grad(t->w);
  dt_tensor *wi = dt_inner(t->w);
  dt_tensor *s = dt_mul_scalar(g, t->lr);
  dt_tensor *nw = dt_sub(wi, s);
  dt_free(t->w);
  t->w = dt_require_grad(nw); // expect-error: autodiff-expected
  dt_free(g); dt_free(wi); dt_free(s);
}

static float step(trainer *t, const dt_tensor *x) {
  dt_tensor *y = dt_matmul(x, t->w);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  float v = 0;
  dt_read_floats(l, &v, 1);
  update(t);
  dt_free(y); dt_free(l);
  return v;
}

int main(void) {
  trainer t = { dt_autodiff(dt_sim(1)), NULL, 0.1f };
  t.w = dt_require_grad(dt_randn(t.ad, 1, 2, (const int64_t[]){3, 2}));
  dt_tensor *x = dt_randn(t.ad, 2, 2, (const int64_t[]){4, 3});
  for (int i = 0; i < 3; i++) printf("%.3f\n", (double)step(&t, x));
  return 0;
}
