/* runtime/backends/sim/sim_kernels_generic.c — sim's kernels for the baseline instruction set of
 * the target (x86-64: SSE2), the variant every machine can run. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3", "fp-contract=fast")
#endif
#if defined(__x86_64__) || defined(__i386__)
#define DT_K_MMF_TM 2 /* 16 vector registers of 4 floats: 2 rows of 16 columns accumulate */
#endif
#define DT_SIM_KERNELS_FN dt_sim_kernels_generic
#include "sim_kernels.h"
