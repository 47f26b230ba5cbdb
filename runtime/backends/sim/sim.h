/* runtime/backends/sim/sim.h — the simulated accelerator backend ("sim"): device memory of its
 * own per ordinal, kernels from runtime/kernels/ launched over a grid on a host thread pool. */
#ifndef DT_SIM_H
#define DT_SIM_H

#include "dt/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sim backend's interface (registered by device.c). */
const dt_backend_iface *dt_sim_backend(void);

#ifdef __cplusplus
}
#endif

#endif /* DT_SIM_H */
