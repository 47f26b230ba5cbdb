/* runtime/backends/sim/sim_kernels.h — the body of one instruction-set variant of sim's kernels:
 * runtime/kernels/ compiled by the C compiler, launched through the sim thread pool. Included
 * by sim_kernels_<variant>.c, which sets the target instruction set and defines
 * DT_SIM_KERNELS_FN, the name of the variant's entry point (declared in sim_pool.h). */
#ifndef DT_SIM_KERNELS_FN
#error "define DT_SIM_KERNELS_FN before including sim_kernels.h"
#endif

#include "sim_pool.h"

#define DT_K_LAUNCH(env, kernel, args, gx, gy, bx) \
  dt_sim_launch((kernel), &(args), (gx), (gy), (bx))
#include "kernels/launch.h"

int DT_SIM_KERNELS_FN(const dt_k_env *env, const dt_op_desc *op) { return dt_k_run(env, op); }
