// corpus/autodiff/detach_meets_plain_bug.c — a logging path detaches the tracked predictions,
// believing the result is a plain tensor, and compares them with plain reference values. A
// detached tensor stays on its autodiff device. Bug: autodiff-expected at dt_sub.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 1}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){3, 2});
  dt_tensor *pred = dt_matmul(x, w);
  dt_tensor *frozen = dt_detach(pred);
  dt_tensor *reference = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){3, 1});
  dt_tensor *diff = dt_sub(frozen, reference); // expect-error: autodiff-expected
  printf("diff %lld\n", (long long)dt_numel(diff));
  return 0;
}
