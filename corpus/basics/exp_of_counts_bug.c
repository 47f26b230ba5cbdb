// provenance: blind round field
// Token counts (int) are passed to exp for a softmax without converting to float.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *softmax1d(const dt_tensor *x) {
  dt_tensor *e = dt_exp(x); // expect-error: kind-mismatch
  dt_tensor *s = dt_sum(e);
  dt_tensor *p = dt_div(e, s);
  dt_free(e); dt_free(s);
  return p;
}

int main(void) {
  const int64_t counts[5] = {3, 0, 1, 7, 2};
  dt_tensor *c = dt_from_ints(dt_cpu(), counts, 1, (const int64_t[]){5});
  dt_tensor *p = softmax1d(c);
  printf("%p\n", (void *)p);
  return 0;
}
