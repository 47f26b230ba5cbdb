// provenance: blind round field4
// Saliency map: the input batch lives on the inner device (loaded plain, never wrapped), so
// asking for its gradient is asking a plain tensor for a gradient.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device ad; dt_tensor *w; } probe;

static dt_tensor *load_input(dt_device ad) {
  return dt_randn(dt_inner_device(ad), 11, 2, (const int64_t[]){1, 4});
}

static dt_tensor *score(const probe *p, const dt_tensor *x) {
  dt_tensor *xa = dt_from_inner(p->ad, (dt_tensor *)x);
  dt_tensor *y = dt_matmul(xa, p->w);
  dt_tensor *s = dt_sum(y);
  dt_free(xa); dt_free(y);
  return s;
}

int main(void) {
  probe p = { dt_autodiff(dt_sim(0)), NULL };
  p.w = dt_require_grad(dt_randn(p.ad, 1, 2, (const int64_t[]){4, 2}));
  dt_tensor *x = load_input(p.ad);
  dt_tensor *s = score(&p, x);
  dt_backward(s);
  dt_tensor *sal = dt_grad(x); // expect-error: autodiff-expected
  printf("%p\n", (void *)sal);
  return 0;
}
