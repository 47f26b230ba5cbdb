// provenance: blind round field2
// Device chosen through a dt_device* out-param into a global; weights made from from_inner
// onto the wrong sim ordinal.
#include <dt/dt.h>
#include <stdio.h>
static dt_device g_train;
static void select_device(int rank, dt_device *out) { *out = dt_autodiff(dt_sim(rank)); }
static dt_tensor *load_weights(void) {
  dt_tensor *raw = dt_randn(dt_sim(0), 5, 2, (const int64_t[]){2, 2});
  return dt_require_grad(dt_from_inner(g_train, raw)); // expect-error: device-mismatch
}
int main(void) {
  select_device(1, &g_train);
  dt_tensor *w = load_weights();
  printf("%p\n", (void *)w);
  return 0;
}
