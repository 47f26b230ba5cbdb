// provenance: blind round field2
// A helper caches a ones-vector in a function-local static on the host; callers pass sim data.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *add_bias_one(const dt_tensor *x) {
  static dt_tensor *ones = NULL;
  if (!ones) ones = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  return dt_add(x, ones); // expect-error: backend-mismatch
}
int main(void) {
  dt_tensor *x = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){2, 4});
  for (int i = 0; i < 2; i++) {
    dt_tensor *y = add_bias_one(x);
    dt_free(y);
  }
  return 0;
}
