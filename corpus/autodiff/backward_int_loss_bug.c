// provenance: blind round field
// The "loss" is a count of misclassified items (int) computed on the autodiff device.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *pred = dt_from_ints(ad, (const int64_t[]){1, 0, 2, 2}, 1, (const int64_t[]){4});
  dt_tensor *gold = dt_from_ints(ad, (const int64_t[]){1, 1, 2, 0}, 1, (const int64_t[]){4});
  dt_tensor *diff = dt_sub(pred, gold);
  dt_tensor *err = dt_sum(diff);
  dt_backward(err); // expect-error: kind-mismatch
  return 0;
}
