// corpus/devices/cuda_guarded_export_clean.c — the same export, guarded: the model goes to
// cuda:0 only when cuda is available, and stays on the host otherwise. Checked with
// `--unavailable cuda` the guarded branch is dead; without it, it is consistent. Clean.
// tagcheck-args: --unavailable cuda
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_tensor *w = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){3, 1});
  dt_device serve_dev = dt_cpu();
  if (dt_backend_available(DT_BACKEND_CUDA)) serve_dev = dt_cuda(0);
  dt_tensor *serving = dt_to_device(w, serve_dev);
  dt_tensor *x = dt_ones(serve_dev, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, serving);
  printf("served %lld predictions\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(serving);
  dt_free(w);
  return 0;
}
