/* runtime/kernels/reduce.cuh — reduction kernels (sum, sum over an axis, mean, mse) over the
 * geometry [outer, len, inner] of dt_k_reduce_args, in CUDA style (kdefs.h). Two kernel shapes:
 *   rows (inner == 1): a block sums one chunk of one row, tree-reduces in shared memory;
 *   cols (inner > 1):  each thread owns one column and walks down its chunk of rows.
 * With p.chunks > 1 the kernels write partial sums ([outer, chunks, inner]) and the launcher
 * reduces them with a second pass (same kernels, len = chunks). Accumulators are per thread and
 * survive barriers, so they are PRIVATE. */
#ifndef DT_KERNELS_REDUCE_CUH
#define DT_KERNELS_REDUCE_CUH

#include "kargs.h"
#include "kdefs.h"

#define DT_K_RED_THREADS 256 /* threads per block; a power of two (tree reduction) */
#ifndef DT_K_RED_ILP
#if defined(DT_K_CUDA)
#define DT_K_RED_ILP 4
#else
#define DT_K_RED_ILP 1
#endif
#endif

/* Row reduction. TI: element type read; TA: accumulator type; TO: type written (partials are
   written as TO too, and read back as TI == TO by the second pass). LOAD(k) is the value of
   element k of the current row (x points at the row of in; p.in2 and row are in scope);
   FINISH(sum, scale) the final value. */
#define DT_K_REDUCE_ROWS_KERNEL(name, TI, TA, TO, LOAD, FINISH)                              \
  KERNEL(name, dt_k_reduce_args, p) {                                                        \
    SHARED TA sh[DT_K_RED_THREADS];                                                          \
    PRIVATE(TA, acc, 1, DT_K_RED_THREADS);                                                   \
    TO *RESTRICT out = (TO *)p.out;                                                          \
    const int64_t tile = BLOCK_DIM_X * DT_K_RED_ILP;                                         \
    for (int64_t row = BLOCK_IDX_Y; row < p.outer; row += GRID_DIM_Y) {                      \
      const TI *RESTRICT x = (const TI *)p.in + row * p.len;                                 \
      for (int64_t ch = BLOCK_IDX_X; ch < p.chunks; ch += GRID_DIM_X) {                      \
        const int64_t start = ch * p.chunk_len;                                              \
        const int64_t end = start + p.chunk_len < p.len ? start + p.chunk_len : p.len;       \
        THREADS { PRIV(acc)[0] = (TA)0; }                                                    \
        int64_t k0 = start;                                                                  \
        for (; k0 + tile <= end; k0 += tile) {                                               \
          THREADS {                                                                          \
            UNROLL for (int w = 0; w < DT_K_RED_ILP; ++w) {                                  \
              const int64_t k = k0 + w * BLOCK_DIM_X + THREAD_IDX_X;                         \
              PRIV(acc)[0] += (TA)(LOAD(k));                                                 \
            }                                                                                \
          }                                                                                  \
        }                                                                                    \
        for (; k0 < end; k0 += BLOCK_DIM_X) {                                                \
          THREADS_BELOW(end - k0) {                                                          \
            const int64_t k = k0 + THREAD_IDX_X;                                             \
            PRIV(acc)[0] += (TA)(LOAD(k));                                                   \
          }                                                                                  \
        }                                                                                    \
        THREADS { sh[THREAD_IDX_X] = PRIV(acc)[0]; }                                         \
        SYNCTHREADS();                                                                       \
        for (int64_t s = BLOCK_DIM_X / 2; s > 0; s >>= 1) {                                  \
          THREADS_BELOW(s) { sh[THREAD_IDX_X] += sh[THREAD_IDX_X + s]; }                     \
          SYNCTHREADS();                                                                     \
        }                                                                                    \
        THREADS_BELOW(1) {                                                                   \
          if (p.chunks == 1)                                                                 \
            out[row] = FINISH(sh[0], p.scale);                                               \
          else                                                                               \
            out[row * p.chunks + ch] = (TO)sh[0];                                            \
        }                                                                                    \
        SYNCTHREADS();                                                                       \
      }                                                                                      \
    }                                                                                        \
  }

/* Column reduction (inner > 1): grid x over blocks of columns, grid y over (outer, chunk)
   slices. Each region reads one row of the slice across the block's columns (coalesced). */
#define DT_K_REDUCE_COLS_KERNEL(name, TI, TA, TO, FINISH)                                    \
  KERNEL(name, dt_k_reduce_args, p) {                                                        \
    PRIVATE(TA, acc, 1, DT_K_RED_THREADS);                                                   \
    TO *RESTRICT out = (TO *)p.out;                                                          \
    const int64_t slices = p.outer * p.chunks;                                               \
    for (int64_t sl = BLOCK_IDX_Y; sl < slices; sl += GRID_DIM_Y) {                          \
      const int64_t o = sl / p.chunks, ch = sl - o * p.chunks;                               \
      const int64_t start = ch * p.chunk_len;                                                \
      const int64_t end = start + p.chunk_len < p.len ? start + p.chunk_len : p.len;         \
      for (int64_t base = BLOCK_IDX_X * BLOCK_DIM_X; base < p.inner;                         \
           base += GRID_DIM_X * BLOCK_DIM_X) {                                               \
        const int64_t cols = p.inner - base;                                                 \
        const TI *RESTRICT x = (const TI *)p.in + o * p.len * p.inner + base;                \
        THREADS_BELOW(cols) { PRIV(acc)[0] = (TA)0; }                                        \
        for (int64_t l = start; l < end; ++l) {                                              \
          THREADS_BELOW(cols) { PRIV(acc)[0] += (TA)x[l * p.inner + THREAD_IDX_X]; }         \
        }                                                                                    \
        THREADS_BELOW(cols) {                                                                \
          const int64_t c = base + THREAD_IDX_X;                                             \
          if (p.chunks == 1)                                                                 \
            out[o * p.inner + c] = FINISH(PRIV(acc)[0], p.scale);                            \
          else                                                                               \
            out[(o * p.chunks + ch) * p.inner + c] = (TO)PRIV(acc)[0];                       \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  }

#endif /* DT_KERNELS_REDUCE_CUH */
