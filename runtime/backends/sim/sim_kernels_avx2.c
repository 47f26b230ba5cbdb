/* runtime/backends/sim/sim_kernels_avx2.c — sim's kernels for x86-64 processors with AVX2 and
 * FMA (x86-64-v3), chosen at run time when the processor has them (sim_backend.c). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#pragma clang fp contract(fast)
#else
#pragma GCC optimize("O3", "fp-contract=fast")
#pragma GCC target("avx2,fma")
#endif
#define DT_K_MMF_TM 4 /* 16 vector registers of 8 floats: 4 rows of 16 columns accumulate */
#define DT_SIM_KERNELS_FN dt_sim_kernels_avx2
#include "sim_kernels.h"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
typedef int dt_sim_kernels_avx2_unused; /* not an x86-64 target: no variant (ISO C: no empty TU) */
#endif
