/* runtime/backends/cuda/cuda_backend.h — the cuda backend's interface, for the plugin entry
 * point (DT_BACKEND_PLUGIN_ENTRY) and for programs linked with the backend's objects directly
 * (the CUDA benchmarks in bench/cuda/). */
#ifndef DT_CUDA_BACKEND_H
#define DT_CUDA_BACKEND_H

#include "dt/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cuda backend's interface: memory through a caching allocator over cudaMalloc, copies
   with cudaMemcpy, operations as runtime/kernels/ launched on the default stream (float
   products through cuBLAS where it loads). */
const dt_backend_iface *dt_cuda_backend(void);

/* Cached device memory held by the allocator on ordinal, in bytes (for tests and benchmarks). */
size_t dt_cuda_cached_bytes(int ordinal);

/* For benchmarks: 1 sends float matrix products to cuBLAS (the default, where libcublas loads;
   DT_CUDA_CUBLAS=0 in the environment starts with 0), 0 to the tiled kernel. */
void dt_cuda_use_cublas(int on);

#ifdef __cplusplus
}
#endif

#endif /* DT_CUDA_BACKEND_H */
