// provenance: blind round field
// A cuda smoke test that exits early when cuda is missing; afterwards cuda is used freely.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  if (!dt_backend_available(DT_BACKEND_CUDA)) {
    printf("cuda not available, skipping\n");
    return 0;
  }
  dt_device dev = dt_cuda(0);
  dt_tensor *a = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){64, 64});
  dt_tensor *b = dt_matmul(a, a);
  float v;
  dt_tensor *s = dt_sum(b);
  dt_read_floats(s, &v, 1);
  printf("%.0f (expect 262144)\n", v);
  dt_free(a); dt_free(b); dt_free(s);
  return 0;
}
