// corpus/flow/available_fallback_clean.c — the usual "use the GPU if there is one" pattern:
// dt_backend_available decides between cuda:0 and the host, and everything after follows the
// chosen device. Clean on machines with and without a GPU (the analyzer must not report
// backend-unavailable: the cuda path is only taken when cuda is available).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_cpu();
  if (dt_backend_available(DT_BACKEND_CUDA)) dev = dt_cuda(0);

  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){16, 16});
  dt_tensor *x = dt_randn(dev, 2, 2, (const int64_t[]){4, 16});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *a = dt_relu(y);
  dt_tensor *s = dt_sum(a);
  float v = 0;
  dt_read_floats(s, &v, 1);
  char name[32];
  dt_device_name(dev, name, sizeof name);
  printf("ran on %s, activation sum %f\n", name, (double)v);
  dt_free(s);
  dt_free(a);
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
