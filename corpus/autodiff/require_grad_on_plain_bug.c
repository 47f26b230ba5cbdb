// corpus/autodiff/require_grad_on_plain_bug.c — parameters initialized on the plain device and
// then marked trainable: dt_require_grad needs a tensor on an autodiff device. Two calls, two
// mistakes (the run stops at the first).
// Bug: autodiff-expected at dt_require_grad.
#include <stdio.h>

#include <dt/dt.h>

typedef struct linear {
  dt_tensor *w, *b;
} linear;

static void linear_init(linear *l, dt_device dev) {
  l->w = dt_randn(dev, 1, 2, (const int64_t[]){4, 2});
  l->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){2});
}

int main(void) {
  linear l;
  linear_init(&l, dt_cpu());
  dt_require_grad(l.w); // expect-error: autodiff-expected
  dt_require_grad(l.b); // expect-error: autodiff-expected
  printf("ready\n");
  return 0;
}
