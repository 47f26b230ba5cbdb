// provenance: blind round field
// Weights restored on sim:0 are wrapped for autodiff<cpu> training without a move.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  const float saved[6] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
  dt_device store = dt_sim(0);
  dt_device train = dt_autodiff(dt_cpu());
  dt_tensor *raw = dt_from_floats(store, saved, 2, (const int64_t[]){3, 2});
  dt_tensor *w = dt_from_inner(train, raw); // expect-error: autodiff-inner-backend
  dt_require_grad(w);
  printf("%p\n", (void *)w);
  return 0;
}
