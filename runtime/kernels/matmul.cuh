/* runtime/kernels/matmul.cuh — the tiled matrix-product kernels (float and int), instances of
 * matmul_tile.cuh, and the tile shapes each target uses. A GPU wants 256 threads of 8x8
 * register tiles in split layout; sim wants few "threads" with wide contiguous rows (a vector
 * register each) and a deep K step to amortize its per-region work. Same source either way.
 * The CUDA float shape was chosen on an H200 among BK 8/16, 1 or 2 blocks per multiprocessor,
 * warp map on/off, vector loads on/off, grouped (swizzled) tile orders (bench/results/
 * h200-matmul-tuning.txt): 128x128x8, 2 blocks, warp map, 16-byte loads, row order was best. */
#ifndef DT_KERNELS_MATMUL_CUH
#define DT_KERNELS_MATMUL_CUH

#include "kargs.h"
#include "kdefs.h"

#if defined(DT_K_CUDA) /* (overridable with -D, to compare tilings in bench/cuda) */
#ifndef DT_K_MMF_BM
#define DT_K_MMF_BM 128
#endif
#ifndef DT_K_MMF_BN
#define DT_K_MMF_BN 128
#endif
#ifndef DT_K_MMF_BK
#define DT_K_MMF_BK 8
#endif
#ifndef DT_K_MMF_TM
#define DT_K_MMF_TM 8
#endif
#ifndef DT_K_MMF_TN
#define DT_K_MMF_TN 8
#endif
#define DT_K_MMF_SPLIT 1
#ifndef DT_K_MMF_WARP_MAP
#define DT_K_MMF_WARP_MAP 1
#endif
#ifndef DT_K_MMF_MIN_BLOCKS
#define DT_K_MMF_MIN_BLOCKS 2
#endif
#define DT_K_MMI_BM 64
#define DT_K_MMI_BN 64
#define DT_K_MMI_BK 8
#define DT_K_MMI_TM 4
#define DT_K_MMI_TN 4
#define DT_K_MMI_SPLIT 1
#define DT_K_MMI_WARP_MAP 1
#else
#ifndef DT_K_MMF_TM /* rows of the per-thread tile: as many vector accumulators as fit */
#define DT_K_MMF_TM 4
#endif
#define DT_K_MMF_BM 64
#define DT_K_MMF_BN 64
#define DT_K_MMF_BK 32
#define DT_K_MMF_TN 16
#define DT_K_MMF_SPLIT 0
#define DT_K_MMF_WARP_MAP 0 /* no warps on sim */
#define DT_K_MMF_MIN_BLOCKS 1
#define DT_K_MMI_BM 32
#define DT_K_MMI_BN 32
#define DT_K_MMI_BK 32
#define DT_K_MMI_TM 4
#define DT_K_MMI_TN 8
#define DT_K_MMI_SPLIT 0
#define DT_K_MMI_WARP_MAP 0
#endif
/* Whether the kernels may load whole 16-byte groups (dt_k_matmul_args.vec); -D0 to compare. */
#ifndef DT_K_MM_VEC_LOADS
#define DT_K_MM_VEC_LOADS 1
#endif
#define DT_K_MMF_V 4 /* floats per 16-byte load group */
#define DT_K_MMI_V 2 /* int64s per 16-byte load group */
#define DT_K_MMF_THREADS ((DT_K_MMF_BM / DT_K_MMF_TM) * (DT_K_MMF_BN / DT_K_MMF_TN))
#define DT_K_MMI_THREADS ((DT_K_MMI_BM / DT_K_MMI_TM) * (DT_K_MMI_BN / DT_K_MMI_TN))

/* float: a * b + acc (contracted to one fused multiply-add where the target has one) */
#define MM_NAME dt_k_matmul_f32
#define MM_T float
#define MM_BM DT_K_MMF_BM
#define MM_BN DT_K_MMF_BN
#define MM_BK DT_K_MMF_BK
#define MM_TM DT_K_MMF_TM
#define MM_TN DT_K_MMF_TN
#define MM_PAD 4
#define MM_SPLIT DT_K_MMF_SPLIT
#define MM_MIN_BLOCKS DT_K_MMF_MIN_BLOCKS
#define MM_V DT_K_MMF_V
#define MM_WARP_MAP DT_K_MMF_WARP_MAP
#define MM_MAC(acc, a, b) ((acc) + (a) * (b))
#include "matmul_tile.cuh"
#undef MM_NAME
#undef MM_T
#undef MM_BM
#undef MM_BN
#undef MM_BK
#undef MM_TM
#undef MM_TN
#undef MM_PAD
#undef MM_SPLIT
#undef MM_MIN_BLOCKS
#undef MM_V
#undef MM_WARP_MAP
#undef MM_MAC

/* int64: wrapping arithmetic (computed unsigned, no signed overflow) */
#define MM_NAME dt_k_matmul_i64
#define MM_T int64_t
#define MM_BM DT_K_MMI_BM
#define MM_BN DT_K_MMI_BN
#define MM_BK DT_K_MMI_BK
#define MM_TM DT_K_MMI_TM
#define MM_TN DT_K_MMI_TN
#define MM_PAD 2
#define MM_SPLIT DT_K_MMI_SPLIT
#define MM_MIN_BLOCKS 1
#define MM_V DT_K_MMI_V
#define MM_WARP_MAP DT_K_MMI_WARP_MAP
#define MM_MAC(acc, a, b) ((int64_t)((uint64_t)(acc) + (uint64_t)(a) * (uint64_t)(b)))
#include "matmul_tile.cuh"
#undef MM_NAME
#undef MM_T
#undef MM_BM
#undef MM_BN
#undef MM_BK
#undef MM_TM
#undef MM_TN
#undef MM_PAD
#undef MM_SPLIT
#undef MM_MIN_BLOCKS
#undef MM_V
#undef MM_WARP_MAP
#undef MM_MAC

#endif /* DT_KERNELS_MATMUL_CUH */
