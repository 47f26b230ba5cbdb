// provenance: blind round field2
// Availability flag remembered in a struct, but the branch is inverted: cuda used when absent.
// tagcheck-args: --unavailable cuda
// run-if: !cuda
#include <dt/dt.h>
#include <stdio.h>
typedef struct { int gpu_ok; } caps;
static caps probe(void) { caps c; c.gpu_ok = dt_backend_available(DT_BACKEND_CUDA); return c; }
int main(void) {
  caps c = probe();
  dt_device d = c.gpu_ok ? dt_cpu() : dt_cuda(0);
  dt_tensor *x = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){4}); // expect-error: backend-unavailable
  printf("%p\n", (void *)x);
  return 0;
}
