/* runtime/backends/sim/sim.h — the simulated accelerator backend ("sim"): device memory of its
 * own per ordinal, kernels from runtime/kernels/ launched over a grid on a host thread pool.
 *
 * Environment: DT_SIM_DEVICES (number of ordinals, 1..64; default 2), DT_SIM_MEMORY (bytes per
 * device, K/M/G suffix; default the smaller of 16 GiB and physical memory), DT_SIM_THREADS
 * (host threads running blocks, the caller included; default the processors), DT_SIM_ISA=generic
 * (use the baseline kernels even where AVX2 is available). */
#ifndef DT_SIM_H
#define DT_SIM_H

#include "dt/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sim backend's interface (registered by device.c). */
const dt_backend_iface *dt_sim_backend(void);
/* The instruction-set variant of sim's kernels in use: "avx2" or "generic" (DT_SIM_ISA=generic
   forces the latter). */
const char *dt_sim_kernel_variant(void);

#ifdef __cplusplus
}
#endif

#endif /* DT_SIM_H */
