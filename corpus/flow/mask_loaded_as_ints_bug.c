// corpus/flow/mask_loaded_as_ints_bug.c — a padding mask read from the dataset as 0/1 integers
// is passed to dt_where as its condition; dt_where needs a bool condition (build it with
// dt_greater). Bug: kind-mismatch.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  static const int64_t mask_host[6] = {1, 1, 0, 1, 0, 0};
  dt_tensor *mask = dt_from_ints(dev, mask_host, 1, (const int64_t[]){6});
  dt_tensor *scores = dt_randn(dev, 1, 1, (const int64_t[]){6});
  dt_tensor *neg = dt_full(dev, -1e4f, 1, (const int64_t[]){6});
  int use_mask = 1;
  dt_tensor *masked = use_mask ? dt_where(mask, scores, neg) : dt_detach(scores); // expect-error: kind-mismatch
  printf("%lld\n", (long long)dt_numel(masked));
  return 0;
}
