/* runtime/kernels/matmul_tile.cuh — the tiled matrix-product kernel, a template by inclusion:
 * matmul.cuh defines MM_NAME, MM_T, MM_BM, MM_BN, MM_BK, MM_TM, MM_TN, MM_PAD, MM_SPLIT,
 * MM_MIN_BLOCKS (blocks per GPU multiprocessor to fit registers for), MM_V (elements of one
 * 16-byte load group), MM_WARP_MAP (see MM_TR) and MM_MAC(acc, a, b), includes this file,
 * and it defines kernel MM_NAME (dt_k_matmul_args).
 *
 * The block computes BM x BN tiles of C (grid-stride over tiles), walking K in steps of BK:
 *   - the A tile (BM x BK) is stored transposed in shared memory (As[k][m], rows padded by
 *     MM_PAD), the B tile as is (Bs[k][n]), so both are read along their rows;
 *   - global loads in groups of MM_V consecutive elements (along k for A, along n for B); when
 *     p.vec says k and n are multiples of MM_V and the matrices 16-byte aligned, a group is
 *     wholly inside or outside the matrix and aligned: one check and one 16-byte load (a
 *     predicated load on a GPU: nothing consumes the loaded registers before the shared
 *     stores, so the load's latency hides behind the current step's arithmetic); otherwise
 *     each element is checked. The two cases are two copies of the tile loop (MM_TILES), so
 *     the check is outside the loop and neither copy carries the other's registers;
 *   - a thread's groups are MM_RA rows (A) / MM_RB k-rows (B) apart, so their addresses are
 *     one base offset per tile plus constants: little integer work per K step;
 *   - double buffering: while computing on one shared buffer, every thread has already issued
 *     the global loads of the next tile into registers (ra, rb), and stores them into the other
 *     buffer afterwards: one barrier per K step;
 *   - register blocking: each thread accumulates a TM x TN sub-tile in registers (acc), reading
 *     TM values of A and TN of B from shared memory per k for TM*TN multiply-adds. With
 *     MM_SPLIT its rows (and columns) come in two halves BM/2 apart, so neighbouring threads
 *     read neighbouring words (conflict-free, vectorizable shared loads on a GPU); without it
 *     they are contiguous (one vector register per row of the sub-tile on sim).
 * Out-of-range elements of edge tiles load as zero and are not stored. */

#define MM_NT ((MM_BM / MM_TM) * (MM_BN / MM_TN))
#define MM_LA (MM_BM * MM_BK / MM_NT) /* elements of A a thread loads per K step */
#define MM_LB (MM_BN * MM_BK / MM_NT)
#define MM_GA (MM_BK / MM_V) /* load groups per row of the A tile */
#define MM_GB (MM_BN / MM_V) /* load groups per row of the B tile */
#define MM_RA (MM_NT / MM_GA) /* rows of A between one thread's groups */
#define MM_RB (MM_NT / MM_GB) /* rows (k) of B between one thread's groups */
#if MM_NT % MM_GA != 0 || MM_NT % MM_GB != 0 || MM_LA % MM_V != 0 || MM_LB % MM_V != 0
#error "matmul_tile.cuh: the tile shape does not split into whole load groups per thread"
#endif
/* Which sub-tile (row tr, column tc of the BM/TM x BN/TN grid of them) thread t computes. With
   MM_WARP_MAP a warp's 32 threads take a 4 x 8 patch of sub-tiles, so per k they read 4 words
   of A and 8 of B from shared memory (one access each) instead of a 2 x 16 strip's 2 and 16. */
#if MM_WARP_MAP
#define MM_WARPS_PER_ROW ((MM_BN / MM_TN) / 8)
#define MM_TR(t) (((t) / 32) / MM_WARPS_PER_ROW * 4 + ((t) % 32) / 8)
#define MM_TC(t) (((t) / 32) % MM_WARPS_PER_ROW * 8 + ((t) % 32) % 8)
#else
#define MM_TR(t) ((t) / (MM_BN / MM_TN))
#define MM_TC(t) ((t) % (MM_BN / MM_TN))
#endif
#if MM_SPLIT
#define MM_ROW(tr, i) \
  ((i) < MM_TM / 2 ? (tr) * (MM_TM / 2) + (i) : MM_BM / 2 + (tr) * (MM_TM / 2) + (i) - MM_TM / 2)
#define MM_COL(tc, j) \
  ((j) < MM_TN / 2 ? (tc) * (MM_TN / 2) + (j) : MM_BN / 2 + (tc) * (MM_TN / 2) + (j) - MM_TN / 2)
#else
#define MM_ROW(tr, i) ((tr) * MM_TM + (i))
#define MM_COL(tc, j) ((tc) * MM_TN + (j))
#endif

KERNEL_BOUNDED(MM_NAME, MM_NT, MM_MIN_BLOCKS, dt_k_matmul_args, p) {
  SHARED DT_K_ALIGNED(16) MM_T As[2][MM_BK][MM_BM + MM_PAD];
  SHARED DT_K_ALIGNED(16) MM_T Bs[2][MM_BK][MM_BN];
  PRIVATE(MM_T, acc, MM_TM * MM_TN, MM_NT);
  PRIVATE(MM_T, ra, MM_LA, MM_NT);
  PRIVATE(MM_T, rb, MM_LB, MM_NT);
  const MM_T *RESTRICT A = (const MM_T *)p.a;
  const MM_T *RESTRICT B = (const MM_T *)p.b;
  MM_T *RESTRICT C = (MM_T *)p.c;
  const int64_t M = p.m, N = p.n, K = p.k;
  const int64_t tiles_m = (M + MM_BM - 1) / MM_BM, tiles_n = (N + MM_BN - 1) / MM_BN;
  const int64_t ktiles = (K + MM_BK - 1) / MM_BK;

/* Global loads of the K step starting at k0 into this thread's registers. Thread t's A groups
   start at row bm + t / GA (then every RA rows), column k0 + (t % GA) * V; its B groups at row
   k0 + t / GB (then every RB rows), column bn + (t % GB) * V. VEC: whole 16-byte groups. */
#define MM_LOAD(VEC, k0)                                                                   \
  do {                                                                                     \
    const int64_t ar = bm + THREAD_IDX_X / MM_GA, ac = (k0) + THREAD_IDX_X % MM_GA * MM_V; \
    const int64_t br = (k0) + THREAD_IDX_X / MM_GB, bc = bn + THREAD_IDX_X % MM_GB * MM_V; \
    const int64_t oa = ar * K + ac, ob = br * N + bc; /* offsets of the first groups */    \
    UNROLL for (int q = 0; q < MM_LA / MM_V; ++q) {                                        \
      MM_T *d = PRIV(ra) + q * MM_V;                                                       \
      const int64_t r = ar + q * MM_RA;                                                    \
      if (VEC) {                                                                           \
        if (r < M && ac < K) {                                                             \
          DT_K_LOAD16(d, A + oa + q * MM_RA * K);                                            \
        } else {                                                                           \
          UNROLL for (int v = 0; v < MM_V; ++v) d[v] = (MM_T)0;                            \
        }                                                                                  \
      } else {                                                                             \
        UNROLL for (int v = 0; v < MM_V; ++v)                                              \
          d[v] = (r < M && ac + v < K) ? A[oa + q * MM_RA * K + v] : (MM_T)0;                  \
      }                                                                                    \
    }                                                                                      \
    UNROLL for (int q = 0; q < MM_LB / MM_V; ++q) {                                        \
      MM_T *d = PRIV(rb) + q * MM_V;                                                       \
      const int64_t r = br + q * MM_RB;                                                    \
      if (VEC) {                                                                           \
        if (r < K && bc < N) {                                                             \
          DT_K_LOAD16(d, B + ob + q * MM_RB * N);                                            \
        } else {                                                                           \
          UNROLL for (int v = 0; v < MM_V; ++v) d[v] = (MM_T)0;                            \
        }                                                                                  \
      } else {                                                                             \
        UNROLL for (int v = 0; v < MM_V; ++v)                                              \
          d[v] = (r < K && bc + v < N) ? B[ob + q * MM_RB * N + v] : (MM_T)0;                  \
      }                                                                                    \
    }                                                                                      \
  } while (0)
/* Stores of those registers into shared buffer buf (A transposed). */
#define MM_STORE(buf)                                                                      \
  do {                                                                                     \
    const int64_t ar = THREAD_IDX_X / MM_GA, ac = THREAD_IDX_X % MM_GA * MM_V;             \
    const int64_t br = THREAD_IDX_X / MM_GB, bc = THREAD_IDX_X % MM_GB * MM_V;             \
    UNROLL for (int q = 0; q < MM_LA / MM_V; ++q) {                                        \
      UNROLL for (int v = 0; v < MM_V; ++v)                                                \
        As[buf][ac + v][ar + q * MM_RA] = PRIV(ra)[q * MM_V + v];                          \
    }                                                                                      \
    UNROLL for (int q = 0; q < MM_LB / MM_V; ++q) {                                        \
      UNROLL for (int v = 0; v < MM_V; ++v)                                                \
        Bs[buf][br + q * MM_RB][bc + v] = PRIV(rb)[q * MM_V + v];                          \
    }                                                                                      \
  } while (0)
/* Every tile of C this block owns, its loads VEC or checked per element. */
#define MM_TILES(VEC)                                                                      \
  for (int64_t tm = BLOCK_IDX_Y; tm < tiles_m; tm += GRID_DIM_Y) {                         \
    for (int64_t tn = BLOCK_IDX_X; tn < tiles_n; tn += GRID_DIM_X) {                       \
      const int64_t bm = tm * MM_BM, bn = tn * MM_BN;                                      \
      THREADS {                                                                            \
        UNROLL for (int e = 0; e < MM_TM * MM_TN; ++e) PRIV(acc)[e] = (MM_T)0;             \
        MM_LOAD(VEC, 0);                                                                   \
        MM_STORE(0);                                                                       \
      }                                                                                    \
      SYNCTHREADS();                                                                       \
      for (int64_t kt = 0; kt < ktiles; ++kt) {                                            \
        const int cur = (int)(kt & 1);                                                     \
        const int more = kt + 1 < ktiles;                                                  \
        if (more) {                                                                        \
          THREADS { MM_LOAD(VEC, (kt + 1) * MM_BK); }                                      \
        }                                                                                  \
        THREADS {                                                                          \
          const int64_t tr = MM_TR(THREAD_IDX_X), tc = MM_TC(THREAD_IDX_X);                \
          MM_T *c = PRIV(acc);                                                             \
          UNROLL for (int kk = 0; kk < MM_BK; ++kk) {                                      \
            MM_T a[MM_TM], b[MM_TN];                                                       \
            UNROLL for (int i = 0; i < MM_TM; ++i) a[i] = As[cur][kk][MM_ROW(tr, i)];      \
            UNROLL for (int j = 0; j < MM_TN; ++j) b[j] = Bs[cur][kk][MM_COL(tc, j)];      \
            UNROLL for (int i = 0; i < MM_TM; ++i) {                                       \
              UNROLL for (int j = 0; j < MM_TN; ++j)                                       \
                c[i * MM_TN + j] = MM_MAC(c[i * MM_TN + j], a[i], b[j]);                   \
            }                                                                              \
          }                                                                                \
        }                                                                                  \
        if (more) {                                                                        \
          THREADS { MM_STORE(cur ^ 1); }                                                   \
        }                                                                                  \
        SYNCTHREADS();                                                                     \
      }                                                                                    \
      THREADS {                                                                            \
        const int64_t tr = MM_TR(THREAD_IDX_X), tc = MM_TC(THREAD_IDX_X);                  \
        UNROLL for (int i = 0; i < MM_TM; ++i) {                                           \
          const int64_t r = bm + MM_ROW(tr, i);                                            \
          if (r < M) {                                                                     \
            UNROLL for (int j = 0; j < MM_TN; ++j) {                                       \
              const int64_t c = bn + MM_COL(tc, j);                                        \
              if (c < N) C[r * N + c] = PRIV(acc)[i * MM_TN + j];                          \
            }                                                                              \
          }                                                                                \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  }

  if (p.vec) {
    MM_TILES(1)
  } else {
    MM_TILES(0)
  }
#undef MM_LOAD
#undef MM_STORE
#undef MM_TILES
}

#undef MM_NT
#undef MM_LA
#undef MM_LB
#undef MM_GA
#undef MM_GB
#undef MM_RA
#undef MM_RB
#undef MM_ROW
#undef MM_COL
#undef MM_TR
#undef MM_TC
#undef MM_WARPS_PER_ROW
