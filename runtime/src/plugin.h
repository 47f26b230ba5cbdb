/* runtime/src/plugin.h — loading the cuda backend plugin (libdt_cuda.so) at run time. */
#ifndef DT_PLUGIN_H
#define DT_PLUGIN_H

#include <stddef.h>

#include "dt/backend.h"

/* Opens libdt_cuda.so (next to libdt, then $DT_CUDA_PLUGIN, then the default search path),
   checks its API version and probes for a GPU. Returns the plugin's interface, or NULL with a
   clear reason written into why. */
const dt_backend_iface *dt__load_cuda_plugin(char *why, size_t why_len);

#endif /* DT_PLUGIN_H */
