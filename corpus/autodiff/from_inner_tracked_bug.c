// corpus/autodiff/from_inner_tracked_bug.c — re-wrapping a tensor that is already tracked:
// the "restore" path hands the tracked weight itself to dt_from_inner instead of its inner
// primitive. Bug: dt_from_inner given an autodiff tensor (autodiff-nested).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *restore(dt_device ad, dt_tensor *saved) {
  return dt_from_inner(ad, saved); // expect-error: autodiff-nested
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 1, (const int64_t[]){5}));
  dt_tensor *w2 = restore(ad, w);
  printf("restored %lld\n", (long long)dt_numel(w2));
  dt_free(w2);
  dt_free(w);
  return 0;
}
