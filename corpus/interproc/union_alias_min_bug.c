// provenance: blind round field3
// A parameter slot union written through one member and read through the other (a "weights
// or gradients" scratch area); the write is on the host, the read meets sim data.
#include <dt/dt.h>
#include <stdio.h>
typedef union { dt_tensor *weight; dt_tensor *grad; } slot;
int main(void) {
  slot s;
  s.grad = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *y = dt_add(x, s.weight); // expect-error: backend-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
