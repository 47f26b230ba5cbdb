// provenance: blind round field4
// Label smoothing with dt_where: the "positive" branch is an int tensor of ones, the
// "negative" branch a float fill.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *smooth(const dt_tensor *is_pos, int n, float eps) {
  dt_device d = dt_device_of(is_pos);
  dt_tensor *hi = dt_ones(d, DT_INT, 1, (const int64_t[]){(int64_t)n});
  dt_tensor *lo = dt_full(d, eps, 1, (const int64_t[]){(int64_t)n});
  dt_tensor *r = dt_where(is_pos, hi, lo); // expect-error: kind-mismatch
  dt_free(hi); dt_free(lo);
  return r;
}

int main(void) {
  dt_device d = dt_sim(1);
  const int64_t raw[4] = {3, 0, 1, 0};
  dt_tensor *lab = dt_from_ints(d, raw, 1, (const int64_t[]){4});
  dt_tensor *zero = dt_zeros(d, DT_INT, 1, (const int64_t[]){4});
  dt_tensor *pos = dt_greater(lab, zero);
  dt_tensor *s = smooth(pos, 4, 0.1f);
  printf("%p\n", (void *)s);
  return 0;
}
