// provenance: blind round field
// The model's device field stores the base device; dt_from_inner is given it instead of the autodiff one.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device base; dt_tensor *w; } model;

int main(void) {
  model m = { dt_cpu(), NULL };
  dt_tensor *init = dt_randn(m.base, 3, 2, (const int64_t[]){3, 3});
  m.w = dt_from_inner(m.base, init); // expect-error: autodiff-expected
  dt_require_grad(m.w);
  printf("%p\n", (void *)m.w);
  return 0;
}
