/* runtime/backends/cpu/cpu.h — the cpu backend: host memory, OpenBLAS for matrix products,
 * loops the compiler vectorizes for the rest. */
#ifndef DT_CPU_H
#define DT_CPU_H

#include "dt/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cpu backend's interface (registered by device.c). */
const dt_backend_iface *dt_cpu_backend(void);

#ifdef __cplusplus
}
#endif

#endif /* DT_CPU_H */
