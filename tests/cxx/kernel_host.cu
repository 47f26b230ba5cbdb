// tests/cxx/kernel_host.cu — CUDA host code: a kernel and its launch, the runtime API through
// <cuda_runtime.h>, and dt calls from the host. Parsed with no toolkit; the kernel is analyzed
// as a function; the host code mixes devices once (line 22).
#include <cuda_runtime.h>

#include <cstdio>

#include <dt/dt.h>

__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

static const int64_t kShape[1] = {4};

int main() {
  float *d = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&d), 4 * sizeof(float));
  scale<<<dim3(1), dim3(4)>>>(d, 2.0f, 4);
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, kShape);
  dt_tensor *b = dt_add(a, dt_ones(dt_sim(0), DT_FLOAT, 1, kShape));
  std::printf("%p %s\n", static_cast<void *>(b), cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(d);
  return 0;
}
