/* bench/cuda/bench_cuda_util.h — what the CUDA benchmark programs share: checked CUDA calls, the
 * GPU/driver/runtime banner every result file starts with, a clean exit where there is no GPU
 * (so `make bench` passes on machines without one), event timing (median of timed repeats after
 * warm-ups), and access to the cuda backend's interface (linked in directly, not dlopen'd). */
#ifndef BENCH_CUDA_UTIL_H
#define BENCH_CUDA_UTIL_H

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_backend.h"

#define BC_CHECK(call)                                                                   \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

/* Prints the banner; returns false (after saying why) where no GPU can be used. */
static inline bool bc_banner(const char *program) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    printf("%s: skipped: no CUDA device (%s)\n", program,
           e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found none");
    return false;
  }
  cudaDeviceProp p;
  BC_CHECK(cudaGetDeviceProperties(&p, 0));
  int drv = 0, rt = 0, clock_khz = 0, mem_khz = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
  printf("%s on %s (sm_%d%d, %d SMs, %.0f MB L2, %.1f GiB, SM clock %d MHz, memory clock %d MHz)\n",
         program, p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize / 1e6,
         p.totalGlobalMem / 1073741824.0, clock_khz / 1000, mem_khz / 1000);
  printf("CUDA driver %d.%d, runtime %d.%d\n", drv / 1000, (drv % 1000) / 10, rt / 1000,
         (rt % 1000) / 10);
  return true;
}

/* Median milliseconds of `reps` timed runs of f() after `warm` untimed ones, each run timed
   with events on the default stream (where the backend launches). */
template <typename F>
static inline double bc_time_ms(F f, int warm = 3, int reps = 10) {
  for (int i = 0; i < warm; ++i) f();
  BC_CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  BC_CHECK(cudaEventCreate(&a));
  BC_CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    BC_CHECK(cudaEventRecord(a, 0));
    f();
    BC_CHECK(cudaEventRecord(b, 0));
    BC_CHECK(cudaEventSynchronize(b));
    float t = 0;
    BC_CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  BC_CHECK(cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/* The backend's run, or exit with its message. */
static inline void bc_run(const dt_op_desc &op) {
  const dt_backend_iface *be = dt_cuda_backend();
  if (be->run(0, &op) != 0) {
    fprintf(stderr, "run: %s\n", be->last_error());
    exit(1);
  }
}

static inline void *bc_alloc(size_t bytes) {
  void *p = dt_cuda_backend()->alloc(0, bytes);
  if (p == nullptr) {
    fprintf(stderr, "alloc of %zu bytes: %s\n", bytes, dt_cuda_backend()->last_error());
    exit(1);
  }
  return p;
}

/* Fills n floats at p with a deterministic non-constant pattern (never zeros). */
__global__ static void bc_pattern(float *p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed * 40503u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    p[i] = (float)(h & 0xffff) / 65536.0f - 0.5f;
  }
}
static inline void bc_fill(float *p, long long n, unsigned seed) {
  bc_pattern<<<1024, 256>>>(p, n, seed);
  BC_CHECK(cudaGetLastError());
}

#endif /* BENCH_CUDA_UTIL_H */
