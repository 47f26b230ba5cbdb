/* tests/backends/fake_cuda_plugin.c — stand-ins for libdt_cuda.so, to test how libdt's plugin
 * loader (runtime/src/plugin.c) treats what it finds. Built once per FAKE_MODE:
 *   1 a plugin of another device API version;  2 a plugin whose probe finds no device;
 *   3 a plugin whose probe succeeds;           4 a shared object without the entry point. */
#include <stdio.h>

#include "dt/backend.h"

#if FAKE_MODE != 4
static int fake_probe(char *why, size_t n) {
#if FAKE_MODE == 2
  snprintf(why, n, "fake: no device in this test");
  return -1;
#else
  (void)why;
  (void)n;
  return 0;
#endif
}
static int fake_count(void) { return 1; }
static void *fake_alloc(int o, size_t b) { (void)o, (void)b; return NULL; }
static void fake_free(int o, void *p) { (void)o, (void)p; }
static int fake_copy(int o, void *d, const void *s, size_t b) { (void)o, (void)d, (void)s, (void)b; return -1; }
static int fake_run(int o, const dt_op_desc *op) { (void)o, (void)op; return -1; }

static const dt_backend_iface fake = {
#if FAKE_MODE == 1
    .api_version = 999,
#else
    .api_version = DT_BACKEND_API_VERSION,
#endif
    .backend = DT_BACKEND_CUDA,
    .name = "fake-cuda",
    .probe = fake_probe,
    .device_count = fake_count,
    .alloc = fake_alloc,
    .free = fake_free,
    .copy_in = fake_copy,
    .copy_out = fake_copy,
    .run = fake_run,
};

__attribute__((visibility("default"))) const dt_backend_iface *dt_backend_plugin_entry(void) {
  return &fake;
}
#else
__attribute__((visibility("default"))) int fake_not_a_plugin(void) { return 4; }
#endif
