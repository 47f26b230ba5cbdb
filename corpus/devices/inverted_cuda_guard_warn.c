// provenance: blind round field
// The availability test is inverted: cuda is used exactly when it is missing.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device dev = dt_cpu();
  if (!dt_backend_available(DT_BACKEND_CUDA)) {
    dev = dt_cuda(0);
  }
  dt_tensor *w = dt_randn(dev, 9, 2, (const int64_t[]){8, 8}); // expect-warning: backend-unavailable
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 8});
  dt_tensor *y = dt_matmul(x, w);
  printf("%p\n", (void *)y);
  return 0;
}
