// corpus/devices/autodiff_cuda_unguarded_bug.c — the training device wraps cuda:0 without a
// guard. Checked with `--unavailable cuda`: the first allocation on autodiff<cuda:0> fails,
// since its inner backend is unavailable (backend-unavailable).
// tagcheck-args: --unavailable cuda
#include <stdio.h>

#include <dt/dt.h>

typedef struct trainer {
  dt_device dev;
  dt_tensor *w;
} trainer;

static void trainer_init(trainer *t) {
  t->dev = dt_autodiff(dt_cuda(0));
  t->w = dt_require_grad(dt_randn(t->dev, 1, 2, (const int64_t[]){8, 8})); // expect-error: backend-unavailable
}

int main(void) {
  trainer t;
  trainer_init(&t);
  printf("%lld\n", (long long)dt_numel(t.w));
  return 0;
}
