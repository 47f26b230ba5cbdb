/* runtime/kernels/layout.cuh — data-movement kernels in CUDA style (kdefs.h): the 2-D transpose
 * through a padded shared-memory tile, and the copy of strided runs that cat (and its gradient)
 * are made of. Generated per element size (uint8_t, uint32_t, uint64_t): they move bits. */
#ifndef DT_KERNELS_LAYOUT_CUH
#define DT_KERNELS_LAYOUT_CUH

#include "kargs.h"
#include "kdefs.h"

#define DT_K_TILE 32     /* transpose tile edge */
#define DT_K_TILE_ROWS 8 /* rows of the tile one pass of the block covers */
#define DT_K_TRANSPOSE_THREADS (DT_K_TILE * DT_K_TILE_ROWS)
#define DT_K_COPY_THREADS 256

/* Transpose: the block reads a 32x32 tile with coalesced loads (consecutive threads, consecutive
   columns), and writes it transposed with coalesced stores; the +1 column of padding keeps the
   transposed reads of the tile free of shared-memory bank conflicts. */
#define DT_K_TRANSPOSE_KERNEL(name, T)                                                     \
  KERNEL(name, dt_k_transpose_args, p) {                                                   \
    SHARED T tile[DT_K_TILE][DT_K_TILE + 1];                                               \
    const T *RESTRICT in = (const T *)p.in;                                                \
    T *RESTRICT out = (T *)p.out;                                                          \
    const int64_t tiles_r = (p.rows + DT_K_TILE - 1) / DT_K_TILE;                          \
    const int64_t tiles_c = (p.cols + DT_K_TILE - 1) / DT_K_TILE;                          \
    for (int64_t tr = BLOCK_IDX_Y; tr < tiles_r; tr += GRID_DIM_Y) {                       \
      for (int64_t tc = BLOCK_IDX_X; tc < tiles_c; tc += GRID_DIM_X) {                     \
        const int64_t r0 = tr * DT_K_TILE, c0 = tc * DT_K_TILE;                            \
        THREADS {                                                                          \
          const int64_t tx = THREAD_IDX_X % DT_K_TILE, ty = THREAD_IDX_X / DT_K_TILE;      \
          for (int64_t j = ty; j < DT_K_TILE; j += DT_K_TILE_ROWS) {                       \
            const int64_t r = r0 + j, c = c0 + tx;                                         \
            if (r < p.rows && c < p.cols) tile[j][tx] = in[r * p.cols + c];                \
          }                                                                                \
        }                                                                                  \
        SYNCTHREADS();                                                                     \
        THREADS {                                                                          \
          const int64_t tx = THREAD_IDX_X % DT_K_TILE, ty = THREAD_IDX_X / DT_K_TILE;      \
          for (int64_t j = ty; j < DT_K_TILE; j += DT_K_TILE_ROWS) {                       \
            const int64_t orow = c0 + j, ocol = r0 + tx; /* out is cols x rows */          \
            if (orow < p.cols && ocol < p.rows) out[orow * p.rows + ocol] = tile[tx][j];   \
          }                                                                                \
        }                                                                                  \
        SYNCTHREADS();                                                                     \
      }                                                                                    \
    }                                                                                      \
  }

/* Strided runs (dt_k_runs_args): name##_rows gives each run a grid row (long runs);
   name##_flat spreads all elements over the grid (short runs, many of them). */
#define DT_K_RUNS_KERNELS(name, T)                                                         \
  KERNEL(name##_rows, dt_k_runs_args, p) {                                                 \
    for (int64_t r = BLOCK_IDX_Y; r < p.rows; r += GRID_DIM_Y) {                           \
      const T *RESTRICT src = (const T *)p.in + r * p.src_pitch;                           \
      T *RESTRICT dst = (T *)p.out + r * p.dst_pitch;                                      \
      for (int64_t base = BLOCK_IDX_X * BLOCK_DIM_X; base < p.run;                         \
           base += GRID_DIM_X * BLOCK_DIM_X) {                                             \
        THREADS_BELOW(p.run - base) { dst[base + THREAD_IDX_X] = src[base + THREAD_IDX_X]; } \
      }                                                                                    \
    }                                                                                      \
  }                                                                                        \
  KERNEL(name##_flat, dt_k_runs_args, p) {                                                 \
    const T *RESTRICT src = (const T *)p.in;                                               \
    T *RESTRICT dst = (T *)p.out;                                                          \
    const int64_t n = p.rows * p.run;                                                      \
    for (int64_t base = BLOCK_IDX_X * BLOCK_DIM_X; base < n;                               \
         base += GRID_DIM_X * BLOCK_DIM_X) {                                               \
      THREADS_BELOW(n - base) {                                                            \
        const int64_t i = base + THREAD_IDX_X;                                             \
        const int64_t r = i / p.run, c = i - r * p.run;                                    \
        dst[r * p.dst_pitch + c] = src[r * p.src_pitch + c];                               \
      }                                                                                    \
    }                                                                                      \
  }

#endif /* DT_KERNELS_LAYOUT_CUH */
