/* runtime/backends/sim/sim_pool.h — sim's grid launcher: runs the blocks of a kernel launch on a
 * pool of host threads (the calling thread included), and the per-variant kernel entry points. */
#ifndef DT_SIM_POOL_H
#define DT_SIM_POOL_H

#include <stdint.h>

#include "dt/backend.h"
#include "kernels/kdefs.h"
#include "kernels/kenv.h"

/* Runs kernel fn over a gx x gy grid of bx-thread blocks and returns when every block is done;
   0 on success, -1 for a launch configuration a GPU would reject (the reason is kept for
   dt_sim_pool_error, which each launch clears first). Launches from several host threads are serialized. */
int dt_sim_launch(dt_kfn fn, const void *args, int64_t gx, int64_t gy, int64_t bx);
/* The reason of the calling thread's last failed launch. */
const char *dt_sim_pool_error(void);
/* Host threads running blocks (the caller included): DT_SIM_THREADS, else the processors. */
int dt_sim_pool_threads(void);

/* The kernels of runtime/kernels/, one entry point per instruction-set variant. */
int dt_sim_kernels_generic(const dt_k_env *env, const dt_op_desc *op);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DT_SIM_HAVE_AVX2 1
int dt_sim_kernels_avx2(const dt_k_env *env, const dt_op_desc *op);
#endif

#endif /* DT_SIM_POOL_H */
