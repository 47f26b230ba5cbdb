// provenance: blind round field
// A helper that "ensures" autodiff wraps unconditionally; called with an autodiff device.
#include <dt/dt.h>
#include <stdio.h>

static dt_device training_device(dt_device d) {
  return dt_autodiff(d); // expect-error: autodiff-nested
}

int main(void) {
  dt_device base = dt_sim(1);
  dt_device ad = dt_autodiff(base);
  dt_device train = training_device(ad);
  dt_tensor *w = dt_zeros(train, DT_FLOAT, 1, (const int64_t[]){4});
  printf("%p\n", (void *)w);
  return 0;
}
