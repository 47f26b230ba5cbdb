// provenance: blind round field2
// A helper fills two tensors through pointer-to-pointer out-params; one is hard-wired to sim:1.
#include <dt/dt.h>
#include <stdio.h>
static int make_inputs(dt_device d, int n, dt_tensor **x, dt_tensor **mask) {
  *x = dt_randn(d, 11, 1, (const int64_t[]){n});
  *mask = dt_full(dt_sim(1), 1.0f, 1, (const int64_t[]){n});
  return *x && *mask ? 0 : -1;
}
int main(void) {
  dt_tensor *x = NULL, *m = NULL;
  if (make_inputs(dt_sim(0), 8, &x, &m)) return 1;
  dt_tensor *y = dt_mul(x, m); // expect-error: device-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
