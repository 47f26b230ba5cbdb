// provenance: blind round field5
// A padding mask read from the dataset as integers is used directly as dt_where's condition
// (needs bool): kind-mismatch. The comparison-based mask right after is fine.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *load_mask(dt_device d) {
  int64_t m[6] = {1, 1, 1, 0, 0, 1};
  return dt_from_ints(d, m, 2, (const int64_t[]){2, 3});
}

int main(void) {
  dt_device d = dt_sim(0);
  dt_tensor *scores = dt_randn(d, 3, 2, (const int64_t[]){2, 3});
  dt_tensor *neg = dt_full(d, -1e9f, 2, (const int64_t[]){2, 3});
  dt_tensor *mask = load_mask(d);
  dt_tensor *masked = dt_where(mask, scores, neg); // expect-error: kind-mismatch
  dt_tensor *zero = dt_zeros(d, DT_INT, 2, (const int64_t[]){2, 3});
  dt_tensor *bmask = dt_greater(mask, zero);
  dt_tensor *masked2 = dt_where(bmask, scores, neg);
  dt_free(masked2); dt_free(bmask); dt_free(zero); dt_free(masked);
  dt_free(mask); dt_free(neg); dt_free(scores);
  puts("ok");
  return 0;
}
