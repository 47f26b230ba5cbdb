/* bench/cuda/bench_cuda_dispatch.c — the whole public path on one-element tensors: dt_add on
 * cuda:0 (tag check, result allocation from the backend's cache, launch) against dt_add on cpu,
 * per call in microseconds, and dt_add + dt_read_floats (a synchronous round trip). Runs only
 * where the cuda backend is available; elsewhere it says why and exits 0. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "dt/dt.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static double per_call(dt_device d, int read_back, int n) {
  const int64_t one[1] = {1};
  dt_tensor *a = dt_full(d, 1.0f, 1, one), *b = dt_full(d, 2.0f, 1, one);
  float v = 0;
  double best = 1e30;
  for (int trial = 0; trial < 5; ++trial) {
    const double t0 = now_us();
    for (int i = 0; i < n; ++i) {
      dt_tensor *c = dt_add(a, b);
      if (read_back || i == n - 1) dt_read_floats(c, &v, 1); /* the last read waits for all */
      dt_free(c);
    }
    const double us = (now_us() - t0) / n;
    best = us < best ? us : best;
  }
  dt_free(a);
  dt_free(b);
  if (v != 3.0f) printf("WRONG RESULT %g\n", v);
  return best;
}

int main(void) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  if (!dt_backend_available(DT_BACKEND_CUDA)) {
    const int64_t one[1] = {1};
    dt_free(dt_zeros(dt_cuda(0), DT_FLOAT, 1, one));
    printf("bench_cuda_dispatch: skipped: %s\n", dt_last_error());
    return 0;
  }
  const double cpu = per_call(dt_cpu(), 0, 100000);
  const double cuda = per_call(dt_cuda(0), 0, 20000);
  const double trip = per_call(dt_cuda(0), 1, 2000);
  printf("bench_cuda_dispatch: one-element dt_add, per call\n");
  printf("%-40s %8.2f us\n", "cpu", cpu);
  printf("%-40s %8.2f us\n", "cuda:0 (queued; last result read)", cuda);
  printf("%-40s %8.2f us\n", "cuda:0 with dt_read_floats each time", trip);
  return 0;
}
