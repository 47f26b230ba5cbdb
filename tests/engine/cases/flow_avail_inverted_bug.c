// The availability test is inverted: the accelerator is used exactly when it is missing.
#include <dt/dt.h>
int main(void) {
  dt_tensor *x;
  if (!dt_backend_available(DT_BACKEND_CUDA)) {
    x = dt_zeros(dt_cuda(0), DT_FLOAT, 1, (const int64_t[]){8}); // expect-error: backend-unavailable
  } else {
    x = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){8});
  }
  dt_free(x);
  return 0;
}
