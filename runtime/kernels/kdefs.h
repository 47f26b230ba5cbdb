/* runtime/kernels/kdefs.h — the few macros that let one CUDA-style kernel source compile twice:
 * by nvcc for the cuda backend (where they are the CUDA built-ins) and by the C compiler for the
 * sim backend (where a launch runs each block as one call on a host thread).
 *
 * How sim runs a block. A kernel body is block-uniform code (executed once per block) holding
 * THREADS regions (executed by every thread of the block). On CUDA a region is just a compound
 * statement every thread runs; on sim it is a loop over the block's thread indices. A barrier,
 * SYNCTHREADS(), may only appear between regions, in block-uniform code — exactly where CUDA
 * allows __syncthreads() (it must be reached by every thread). Because sim finishes a region for
 * all threads before the next one starts, the barrier itself costs nothing there. The rules that
 * make this correct, and that the macros enforce where C can:
 *   - THREAD_IDX_X exists only inside a region (on sim it is the region's loop variable), so
 *     block-uniform code cannot depend on it by accident;
 *   - a per-thread value that must survive a barrier lives in a PRIVATE array (sim replicates it
 *     per thread, CUDA keeps it in registers), accessed as PRIV(name)[i];
 *   - threads of one region do not communicate through shared memory (that would be a race on
 *     CUDA too); they do so across a SYNCTHREADS();
 *   - SHARED arrays are block-local: on sim, locals of the block's call.
 * THREADS_BELOW(n) is a region in which only threads with THREAD_IDX_X < n work (the usual
 * `if (i < n)` guard); on sim it is a loop with that bound, which the C compiler vectorizes.
 *
 * DT_K_LOAD16(dst, src) moves 16 aligned bytes of read-only input into a register array in
 * one load (a vector load on both targets).
 *
 * Kernels take one argument struct by value: KERNEL(name, ArgT, p) { ... p.field ... }
 * (KERNEL_BOUNDED adds CUDA's __launch_bounds__: threads per block, blocks per multiprocessor
 * to fit registers for). They are launched by the backend's DT_K_LAUNCH (see launch.h) with a 2-D grid of 1-D blocks. */
#ifndef DT_KERNELS_KDEFS_H
#define DT_KERNELS_KDEFS_H

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)

#define DT_K_CUDA 1
#define KERNEL(name, ArgT, p) static __global__ void name(const ArgT p)
#define KERNEL_BOUNDED(name, nthreads, min_blocks, ArgT, p) \
  static __global__ void __launch_bounds__(nthreads, min_blocks) name(const ArgT p)
#define DEVICE_FN static __device__ __forceinline__
#define HOST_DEVICE_FN static __host__ __device__ __forceinline__
#define RESTRICT __restrict__
#define BLOCK_IDX_X ((int64_t)blockIdx.x)
#define BLOCK_IDX_Y ((int64_t)blockIdx.y)
#define GRID_DIM_X ((int64_t)gridDim.x)
#define GRID_DIM_Y ((int64_t)gridDim.y)
#define BLOCK_DIM_X ((int64_t)blockDim.x)
#define THREAD_IDX_X ((int64_t)threadIdx.x)
#define THREADS
#define THREADS_BELOW(n) if (THREAD_IDX_X < (int64_t)(n))
#define SYNCTHREADS() __syncthreads()
#define SHARED __shared__
#define PRIVATE(T, name, count, nthreads) T name[count]
#define PRIV(name) name
#define UNROLL _Pragma("unroll")
#define DT_K_ALIGNED(n) __align__(n)
/* Copies 16 bytes from src (16-byte aligned, read-only during the kernel) to the registers
   dst: one vector load. */
template <typename T>
__device__ __forceinline__ void dt_k_load16(T *dst, const T *src) {
  const uint4 v = __ldg(reinterpret_cast<const uint4 *>(src));
  memcpy(dst, &v, 16);
}
#define DT_K_LOAD16(dst, src) dt_k_load16((dst), (src))

#else /* sim: plain C11 */

#define DT_K_SIM 1
/* Launch state of the block being run; passed to every kernel body. */
typedef struct dt_kctx {
  int64_t grid_x, grid_y, block_x; /* launch configuration */
  int64_t block_idx_x, block_idx_y;
} dt_kctx;
/* The form every sim kernel has once compiled: args points to the kernel's argument struct. */
typedef void (*dt_kfn)(const dt_kctx *kctx, const void *args);

#if defined(__GNUC__)
#define DT_K_UNUSED __attribute__((unused))
#else
#define DT_K_UNUSED
#endif
#define KERNEL(name, ArgT, p)                                                   \
  static void name##_body_(const dt_kctx *dt_kctx_ DT_K_UNUSED, const ArgT p);  \
  static void name(const dt_kctx *kctx, const void *args) {                     \
    name##_body_(kctx, *(const ArgT *)args);                                    \
  }                                                                             \
  static void name##_body_(const dt_kctx *dt_kctx_ DT_K_UNUSED, const ArgT p)
#define KERNEL_BOUNDED(name, nthreads, min_blocks, ArgT, p) KERNEL(name, ArgT, p)
#define DEVICE_FN static inline
#define HOST_DEVICE_FN static inline
#define RESTRICT restrict
#define BLOCK_IDX_X (dt_kctx_->block_idx_x)
#define BLOCK_IDX_Y (dt_kctx_->block_idx_y)
#define GRID_DIM_X (dt_kctx_->grid_x)
#define GRID_DIM_Y (dt_kctx_->grid_y)
#define BLOCK_DIM_X (dt_kctx_->block_x)
#define THREAD_IDX_X dt_tid_
#define THREADS for (int64_t dt_tid_ = 0; dt_tid_ < dt_kctx_->block_x; ++dt_tid_)
#define THREADS_BELOW(n)                                                                  \
  for (int64_t dt_lim_ = (int64_t)(n) < dt_kctx_->block_x ? (int64_t)(n) : dt_kctx_->block_x, \
               dt_tid_ = 0;                                                               \
       dt_tid_ < dt_lim_; ++dt_tid_)
#define SYNCTHREADS() ((void)0)
#define SHARED
#define PRIVATE(T, name, count, nthreads) T name[nthreads][count]
#define PRIV(name) name[dt_tid_]
#define DT_K_ALIGNED(n) _Alignas(n)
#define DT_K_LOAD16(dst, src) memcpy((dst), (src), 16)
#if defined(__clang__)
#define UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define UNROLL _Pragma("GCC unroll 16")
#else
#define UNROLL
#endif

#endif /* __CUDACC__ */

#endif /* DT_KERNELS_KDEFS_H */
