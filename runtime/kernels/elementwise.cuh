/* runtime/kernels/elementwise.cuh — element-wise kernels: fill, contiguous maps (binary,
 * unary, scalar) and broadcast maps over up to three inputs (binary ops, greater, where).
 * Written once in CUDA style (kdefs.h); every kernel is generated per operation and element type
 * by the DT_K_*_KERNEL macros below and instantiated in ops.cuh. */
#ifndef DT_KERNELS_ELEMENTWISE_CUH
#define DT_KERNELS_ELEMENTWISE_CUH

#include "kargs.h"
#include "kdefs.h"

#define DT_K_EW_THREADS 256 /* threads per block of every element-wise kernel */
/* Elements per thread per tile: on a GPU, independent loads in flight per thread; on sim, 1
   keeps each region one contiguous loop the C compiler vectorizes. */
#ifndef DT_K_EW_ILP
#if defined(DT_K_CUDA)
#define DT_K_EW_ILP 4
#else
#define DT_K_EW_ILP 1
#endif
#endif

/* fill: out[i] = bits, for element type T (uint8_t, uint32_t or uint64_t). */
#define DT_K_FILL_KERNEL(name, T)                                                   \
  KERNEL(name, dt_k_fill_args, p) {                                                 \
    T *RESTRICT out = (T *)p.out;                                                   \
    const T v = (T)p.bits;                                                          \
    for (int64_t base = BLOCK_IDX_X * BLOCK_DIM_X; base < p.n;                      \
         base += GRID_DIM_X * BLOCK_DIM_X) {                                        \
      THREADS_BELOW(p.n - base) { out[base + THREAD_IDX_X] = v; }                   \
    }                                                                               \
  }

/* On CUDA, maps whose element types are all 4 bytes wide (float, and float -> float) move whole
   16-byte groups: thread t of a tile handles elements base + 4t .. base + 4t + 3 with one
   vector load per input and one vector store (what reaches the copy bandwidth); the tail and
   every other map take the per-element path. Buffers from the allocator are 256-byte aligned;
   the alignment is checked anyway. */
#if defined(DT_K_CUDA)
#define DT_K_MAP_VEC4_TILES(name, NIN, T0, T1, TO)                                          \
  if (sizeof(T0) == 4 && sizeof(T1) == 4 && sizeof(TO) == 4 && DT_K_EW_ILP == 4 &&          \
      ((reinterpret_cast<uintptr_t>(p.in0) | reinterpret_cast<uintptr_t>(p.in1) |           \
        reinterpret_cast<uintptr_t>(p.out)) & 15) == 0) {                                   \
    for (; base + tile <= p.n; base += GRID_DIM_X * tile) {                                 \
      const int64_t i = base + 4 * THREAD_IDX_X;                                            \
      T0 a[4];                                                                              \
      T1 b[4] = {(T1)0, (T1)0, (T1)0, (T1)0};                                               \
      DT_K_LOAD16(a, in0 + i);                                                              \
      if ((NIN) > 1) DT_K_LOAD16(b, in1 + i);                                               \
      TO r[4];                                                                              \
      UNROLL for (int w = 0; w < 4; ++w) r[w] = name##_op(a[w], b[w], p.s);                 \
      uint4 v;                                                                              \
      memcpy(&v, r, 16);                                                                    \
      *reinterpret_cast<uint4 *>(out + i) = v;                                              \
    }                                                                                       \
  }
#else
#define DT_K_MAP_VEC4_TILES(name, NIN, T0, T1, TO)
#endif

/* Contiguous map: out[i] = EXPR for i < n, where EXPR reads x0 (T0), x1 (T1, when NIN == 2)
   and s (the float scalar). Full tiles of BLOCK_DIM_X * DT_K_EW_ILP elements need no bounds
   check; thread t handles elements base + w * BLOCK_DIM_X + t (coalesced for every w), or on
   CUDA a 16-byte group of them (DT_K_MAP_VEC4_TILES). */
#define DT_K_MAP_KERNEL(name, NIN, T0, T1, TO, EXPR)                                       \
  DEVICE_FN TO name##_op(T0 x0, T1 x1, float s) {                                          \
    (void)x0;                                                                              \
    (void)x1;                                                                              \
    (void)s;                                                                               \
    return (TO)(EXPR);                                                                     \
  }                                                                                        \
  KERNEL(name, dt_k_map_args, p) {                                                         \
    const T0 *RESTRICT in0 = (const T0 *)p.in0;                                            \
    const T1 *RESTRICT in1 = (const T1 *)p.in1;                                            \
    TO *RESTRICT out = (TO *)p.out;                                                        \
    const int64_t tile = BLOCK_DIM_X * DT_K_EW_ILP;                                        \
    int64_t base = BLOCK_IDX_X * tile;                                                     \
    DT_K_MAP_VEC4_TILES(name, NIN, T0, T1, TO)                                             \
    for (; base + tile <= p.n; base += GRID_DIM_X * tile) {                                \
      THREADS {                                                                            \
        UNROLL for (int w = 0; w < DT_K_EW_ILP; ++w) {                                     \
          const int64_t i = base + w * BLOCK_DIM_X + THREAD_IDX_X;                         \
          out[i] = name##_op(in0[i], (NIN) > 1 ? in1[i] : (T1)0, p.s);                     \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
    if (base < p.n) {                                                                      \
      for (int w = 0; w < DT_K_EW_ILP; ++w) {                                              \
        const int64_t b = base + w * BLOCK_DIM_X;                                          \
        THREADS_BELOW(p.n - b) {                                                           \
          const int64_t i = b + THREAD_IDX_X;                                              \
          out[i] = name##_op(in0[i], (NIN) > 1 ? in1[i] : (T1)0, p.s);                     \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  }

/* On CUDA, a broadcast row whose inputs and output are 4-byte elements at unit strides (the bias
   add of a linear layer: an [N, H] input plus an [H] row) moves whole 16-byte groups, as the
   contiguous maps do: thread t handles columns 4t .. 4t + 3 with one vector load per input and
   one vector store. One element per thread left the bias add of a 65536 x 4096 layer at a third
   of the copy bandwidth on an H200 (1.67 ms where relu's map took 0.54 ms). Rows whose length
   is not a multiple of 4, or whose pointers are not 16-byte aligned, take the per-element path. */
#if defined(DT_K_CUDA)
#define DT_K_BCAST_ROW_VEC4(name, NIN, T0, T1, T2, TO)                                       \
  if (p.unit_inner && sizeof(T0) == 4 && sizeof(T1) == 4 && sizeof(T2) == 4 &&              \
      sizeof(TO) == 4 && DT_K_EW_ILP == 4 && (p.inner & 3) == 0 &&                         \
      ((reinterpret_cast<uintptr_t>(a0) | reinterpret_cast<uintptr_t>(a1) |                  \
        reinterpret_cast<uintptr_t>(a2) | reinterpret_cast<uintptr_t>(o)) & 15) == 0) {       \
    for (int64_t c = (BLOCK_IDX_X * BLOCK_DIM_X + THREAD_IDX_X) * 4; c < p.inner;            \
         c += GRID_DIM_X * BLOCK_DIM_X * 4) {                                                \
      T0 x[4];                                                                               \
      T1 y[4];                                                                               \
      T2 z[4] = {(T2)0, (T2)0, (T2)0, (T2)0};                                                \
      DT_K_LOAD16(x, a0 + c);                                                                \
      DT_K_LOAD16(y, a1 + c);                                                                \
      if ((NIN) > 2) DT_K_LOAD16(z, a2 + c);                                                 \
      TO r[4];                                                                               \
      UNROLL for (int w = 0; w < 4; ++w) r[w] = name##_op(x[w], y[w], z[w]);                 \
      uint4 v;                                                                               \
      memcpy(&v, r, 16);                                                                     \
      *reinterpret_cast<uint4 *>(o + c) = v;                                                 \
    }                                                                                        \
    continue;                                                                                \
  }
#else
#define DT_K_BCAST_ROW_VEC4(name, NIN, T0, T1, T2, TO)
#endif

/* The offsets of row `row` of a broadcast in each input (see dt_k_bcast_args). */
DEVICE_FN void dt_k_bcast_row_offsets(const dt_k_bcast_args *p, int64_t row, int64_t off[3]) {
  int64_t o0 = 0, o1 = 0, o2 = 0;
  for (int d = p->orank - 1; d >= 0; --d) {
    const int64_t dim = p->oshape[d];
    const int64_t idx = row % dim;
    row /= dim;
    o0 += idx * p->ostride[0][d];
    o1 += idx * p->ostride[1][d];
    o2 += idx * p->ostride[2][d];
  }
  off[0] = o0;
  off[1] = o1;
  off[2] = o2;
}

/* Broadcast maps: out = EXPR(x0, x1[, x2]) over dt_k_bcast_args. Two kernels per operation:
   name##_rows (a grid row per output row; its input offsets depend on the row only, so they are
   block-uniform and computed once per row; for long inner runs) and name##_flat (each thread
   unravels its own index; for short inner runs). */
#define DT_K_BCAST_KERNELS(name, NIN, T0, T1, T2, TO, EXPR)                                 \
  DEVICE_FN TO name##_op(T0 x0, T1 x1, T2 x2) {                                             \
    (void)x0;                                                                               \
    (void)x1;                                                                               \
    (void)x2;                                                                               \
    return (TO)(EXPR);                                                                      \
  }                                                                                         \
  KERNEL(name##_rows, dt_k_bcast_args, p) {                                                 \
    const int64_t s0 = p.istride[0], s1 = p.istride[1], s2 = p.istride[2];                  \
    for (int64_t row = BLOCK_IDX_Y; row < p.rows; row += GRID_DIM_Y) {                      \
      int64_t off[3];                                                                       \
      dt_k_bcast_row_offsets(&p, row, off);                                                 \
      const T0 *RESTRICT a0 = (const T0 *)p.in[0] + off[0];                                 \
      const T1 *RESTRICT a1 = (const T1 *)p.in[1] + off[1];                                 \
      const T2 *RESTRICT a2 = (const T2 *)p.in[(NIN) > 2 ? 2 : 1] + ((NIN) > 2 ? off[2] : 0); \
      TO *RESTRICT o = (TO *)p.out + row * p.inner;                                         \
      DT_K_BCAST_ROW_VEC4(name, NIN, T0, T1, T2, TO)                                        \
      for (int64_t base = BLOCK_IDX_X * BLOCK_DIM_X; base < p.inner;                        \
           base += GRID_DIM_X * BLOCK_DIM_X) {                                              \
        if (p.unit_inner) { /* block-uniform: the common row broadcast, unit strides */     \
          THREADS_BELOW(p.inner - base) {                                                   \
            const int64_t c = base + THREAD_IDX_X;                                          \
            o[c] = name##_op(a0[c], a1[c], (NIN) > 2 ? a2[c] : (T2)0);                      \
          }                                                                                 \
        } else {                                                                            \
          THREADS_BELOW(p.inner - base) {                                                   \
            const int64_t c = base + THREAD_IDX_X;                                          \
            o[c] = name##_op(a0[c * s0], a1[c * s1], (NIN) > 2 ? a2[c * s2] : (T2)0);       \
          }                                                                                 \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
  }                                                                                         \
  KERNEL(name##_flat, dt_k_bcast_args, p) {                                                 \
    const T0 *RESTRICT a0 = (const T0 *)p.in[0];                                            \
    const T1 *RESTRICT a1 = (const T1 *)p.in[1];                                            \
    const T2 *RESTRICT a2 = (const T2 *)p.in[(NIN) > 2 ? 2 : 1];                            \
    TO *RESTRICT out = (TO *)p.out;                                                         \
    for (int64_t base = BLOCK_IDX_X * BLOCK_DIM_X; base < p.n;                              \
         base += GRID_DIM_X * BLOCK_DIM_X) {                                                \
      THREADS_BELOW(p.n - base) {                                                           \
        const int64_t i = base + THREAD_IDX_X;                                              \
        const int64_t row = i / p.inner, c = i - row * p.inner;                             \
        int64_t off[3];                                                                     \
        dt_k_bcast_row_offsets(&p, row, off);                                               \
        out[i] = name##_op(a0[off[0] + c * p.istride[0]], a1[off[1] + c * p.istride[1]],    \
                           (NIN) > 2 ? a2[off[2] + c * p.istride[2]] : (T2)0);              \
      }                                                                                     \
    }                                                                                       \
  }

#endif /* DT_KERNELS_ELEMENTWISE_CUH */
