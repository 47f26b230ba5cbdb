/* runtime/src/plugin.c — loads the cuda backend plugin (skeleton: always unavailable). */
#include <stdio.h>

#include "plugin.h"

const dt_backend_iface *dt__load_cuda_plugin(char *why, size_t why_len) {
  if (why && why_len) snprintf(why, why_len, "libdt_cuda.so not found (built without nvcc)");
  return NULL;
}
