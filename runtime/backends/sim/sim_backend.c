/* runtime/backends/sim/sim_backend.c — the sim backend's interface (skeleton: memory only). */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static int sim_probe(char *why, size_t why_len) {
  (void)why;
  (void)why_len;
  return 0;
}
static int sim_device_count(void) { return 2; }
static void *sim_alloc(int ordinal, size_t bytes) {
  (void)ordinal;
  return malloc(bytes ? bytes : 1);
}
static void sim_free(int ordinal, void *p) {
  (void)ordinal;
  free(p);
}
static int sim_copy(int ordinal, void *dst, const void *src, size_t bytes) {
  (void)ordinal;
  if (bytes) memcpy(dst, src, bytes);
  return 0;
}
static int sim_run(int ordinal, const dt_op_desc *op) {
  (void)ordinal;
  (void)op;
  return -1;
}

static const dt_backend_iface sim_iface = {
    .api_version = DT_BACKEND_API_VERSION,
    .backend = DT_BACKEND_SIM,
    .name = "sim",
    .probe = sim_probe,
    .device_count = sim_device_count,
    .alloc = sim_alloc,
    .free = sim_free,
    .copy_in = sim_copy,
    .copy_out = sim_copy,
    .copy_device = sim_copy,
    .run = sim_run,
    .synchronize = NULL,
    .last_error = NULL,
};

const dt_backend_iface *dt_sim_backend(void) { return &sim_iface; }
