// tagcheck-args: --unavailable cuda
// The accelerator is used only where the program checked it is there.
#include <stdio.h>
#include <dt/dt.h>
int main(void) {
  dt_device dev = dt_cpu();
  if (dt_backend_available(DT_BACKEND_CUDA)) dev = dt_cuda(0);
  dt_tensor *a = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){3});
  int has = dt_backend_available(DT_BACKEND_CUDA);
  dt_device other = has ? dt_cuda(0) : dt_cpu();
  dt_tensor *b = dt_ones(other, DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor *c = dt_add(a, b);
  printf("%lld\n", (long long)dt_numel(c));
  return 0;
}
