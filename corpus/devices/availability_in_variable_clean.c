// corpus/devices/availability_in_variable_clean.c — dt_backend_available's answer is kept in a
// config field at start-up and tested later, far from the call; the cuda device is only used
// under that test. Checked with `--unavailable cuda`: no finding (the guarded code is dead, the
// rest is on the host).
// tagcheck-args: --unavailable cuda
#include <stdio.h>

#include <dt/dt.h>

typedef struct runtime_info {
  int has_cuda;
  int threads;
} runtime_info;

static runtime_info probe(void) {
  runtime_info info;
  info.has_cuda = dt_backend_available(DT_BACKEND_CUDA);
  info.threads = 4;
  return info;
}

int main(void) {
  runtime_info info = probe();
  dt_tensor *w = dt_randn(dt_cpu(), 1, 2, (const int64_t[]){4, 4});
  dt_tensor *x = dt_randn(dt_cpu(), 2, 2, (const int64_t[]){2, 4});
  dt_tensor *y;
  if (info.has_cuda) {
    dt_tensor *wg = dt_to_device(w, dt_cuda(0));
    dt_tensor *xg = dt_to_device(x, dt_cuda(0));
    dt_tensor *yg = dt_matmul(xg, wg);
    y = dt_to_device(yg, dt_cpu());
    dt_free(yg);
    dt_free(xg);
    dt_free(wg);
  } else {
    y = dt_matmul(x, w);
  }
  printf("%lld outputs (%s)\n", (long long)dt_numel(y), info.has_cuda ? "cuda" : "host");
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
