// tagcheck-args: --unavailable cuda
// The configuration says this machine has no CUDA; the program allocates there unconditionally.
#include <dt/dt.h>
int main(void) {
  dt_device dev = dt_cuda(0);
  dt_tensor *x = dt_randn(dev, 7, 1, (const int64_t[]){8}); // expect-error: backend-unavailable
  dt_free(x);
  return 0;
}
