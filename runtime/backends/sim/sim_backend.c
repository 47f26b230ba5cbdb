/* runtime/backends/sim/sim_backend.c — the sim backend's interface (dt_backend_iface): device
 * memory from the per-ordinal arenas (sim_memory.c: device addresses the host cannot
 * dereference), copies that translate device addresses to the backing store, and `run`, which
 * validates that every operand is memory of that ordinal, translates the descriptor's pointers
 * and runs runtime/kernels/ through the thread pool (sim_pool.c) in the instruction-set variant
 * the processor supports. Synchronous: when run returns, the kernels are done. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kenv.h"
#include "kernels/opinfo.h"
#include "sim.h"
#include "sim_memory.h"
#include "sim_pool.h"

/* The simulated device's geometry: as many blocks as a large GPU keeps resident. */
#define DT_SIM_MAX_BLOCKS 2048

typedef int (*dt_sim_kernels_fn)(const dt_k_env *env, const dt_op_desc *op);

typedef struct dt_sim_device {
  pthread_mutex_t lock; /* one run at a time per device: the scratch buffer is shared */
  dt_sim_memory *mem;
  void *scratch;
  size_t scratch_bytes;
} dt_sim_device;

static dt_sim_device g_dev[64];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static dt_sim_kernels_fn g_kernels;
static const char *g_variant;
static _Thread_local char g_err[320];

static void set_err(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_err, sizeof g_err, fmt, ap);
  va_end(ap);
}

static void sim_init(void) {
  for (size_t i = 0; i < sizeof g_dev / sizeof g_dev[0]; ++i)
    pthread_mutex_init(&g_dev[i].lock, NULL);
  const char *want = getenv("DT_SIM_ISA");
  g_kernels = dt_sim_kernels_generic;
  g_variant = "generic";
#ifdef DT_SIM_HAVE_AVX2
  int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2 && (want == NULL || strcmp(want, "generic") != 0)) {
    g_kernels = dt_sim_kernels_avx2;
    g_variant = "avx2";
  }
#else
  (void)want;
#endif
}

const char *dt_sim_kernel_variant(void) {
  pthread_once(&g_once, sim_init);
  return g_variant;
}

/* The memory of ordinal, or NULL with the reason recorded. */
static dt_sim_memory *memory_of(int ordinal) {
  pthread_once(&g_once, sim_init);
  return dt_sim_memory_get(ordinal, g_err, sizeof g_err);
}

static int sim_probe(char *why, size_t why_len) {
  (void)why;
  (void)why_len;
  return 0; /* sim exists everywhere; its arenas are reserved on first use */
}

static int sim_device_count(void) { return dt_sim_memory_device_count(); }

static void *sim_alloc(int ordinal, size_t bytes) {
  dt_sim_memory *m = memory_of(ordinal);
  if (m == NULL) return NULL;
  void *p = dt_sim_memory_alloc(m, bytes);
  if (p == NULL)
    set_err("out of simulated device memory on sim:%d (%zu bytes requested, %zu in use)", ordinal,
            bytes, dt_sim_memory_in_use(m));
  return p;
}

static void sim_free(int ordinal, void *ptr) {
  dt_sim_memory *m = memory_of(ordinal);
  if (m != NULL && dt_sim_memory_free(m, ptr) != 0)
    set_err("sim:%d: free of %p, which is not an allocation of this device", ordinal, ptr);
}

/* Checks that [p, p + bytes) is memory of ordinal's arena. */
static int check_owned(dt_sim_memory *m, int ordinal, const void *p, size_t bytes, const char *what) {
  if (dt_sim_memory_owns(m, p, bytes)) return 0;
  set_err("sim:%d: %s %p (%zu bytes) is not memory of this device", ordinal, what, p, bytes);
  return -1;
}

/* memmove between host and/or device memory of ordinal (device sides translated). */
static int device_copy(int ordinal, void *dst, int dst_dev, const void *src, int src_dev,
                       size_t bytes) {
  if (bytes == 0) return 0;
  dt_sim_memory *m = memory_of(ordinal);
  if (m == NULL) return -1;
  if (dst_dev) {
    if (check_owned(m, ordinal, dst, bytes, "copy destination") != 0) return -1;
    dst = dt_sim_memory_backing(m, dst);
  }
  if (src_dev) {
    if (check_owned(m, ordinal, src, bytes, "copy source") != 0) return -1;
    src = dt_sim_memory_backing(m, src);
  }
  memmove(dst, src, bytes);
  return 0;
}

static int sim_copy_in(int ordinal, void *dst, const void *host_src, size_t bytes) {
  return device_copy(ordinal, dst, 1, host_src, 0, bytes);
}
static int sim_copy_out(int ordinal, void *host_dst, const void *src, size_t bytes) {
  return device_copy(ordinal, host_dst, 0, src, 1, bytes);
}
static int sim_copy_device(int ordinal, void *dst, const void *src, size_t bytes) {
  return device_copy(ordinal, dst, 1, src, 1, bytes);
}

/* Scratch memory for partial results (reductions): grown on demand, kept per device. Called
   from inside a run, with the device locked; returns the backing address kernels use. */
static void *sim_scratch(const dt_k_env *env, size_t bytes) {
  dt_sim_device *d = env->device;
  if (d->scratch_bytes < bytes || d->scratch == NULL) {
    if (d->scratch != NULL) dt_sim_memory_free(d->mem, d->scratch);
    d->scratch = dt_sim_memory_alloc(d->mem, bytes);
    d->scratch_bytes = d->scratch != NULL ? bytes : 0;
  }
  return d->scratch != NULL ? dt_sim_memory_backing(d->mem, d->scratch) : NULL;
}

static int sim_run(int ordinal, const dt_op_desc *op) {
  dt_sim_memory *m = memory_of(ordinal);
  if (m == NULL) return -1;
  const char *name = dt_k_op_name(op->op);
  /* the kernels get the descriptor with backing addresses */
  dt_op_desc k = *op;
  if (check_owned(m, ordinal, op->out, 0, "output") != 0) return -1;
  k.out = dt_sim_memory_backing(m, op->out);
  for (int i = 0; i < dt_k_op_inputs(op->op); ++i) {
    char what[32];
    snprintf(what, sizeof what, "%s input %d", name, i);
    if (check_owned(m, ordinal, op->in[i], 0, what) != 0) return -1;
    k.in[i] = dt_sim_memory_backing(m, op->in[i]);
  }
  dt_sim_device *d = &g_dev[ordinal];
  pthread_mutex_lock(&d->lock);
  d->mem = m;
  dt_k_env env = {DT_SIM_MAX_BLOCKS, sim_scratch, d, 0};
  int rc = g_kernels(&env, &k);
  if (rc != 0) {
    const char *why = dt_sim_pool_error();
    if (why[0] != '\0')
      set_err("sim:%d: %s: %s", ordinal, name, why);
    else
      set_err("sim:%d: %s is not supported on these kinds (in %d, out %d) or scratch memory "
              "ran out", ordinal, name, (int)op->kind, (int)op->out_kind);
  }
  pthread_mutex_unlock(&d->lock);
  return rc;
}

static const char *sim_last_error(void) { return g_err; }

static const dt_backend_iface sim_iface = {
    .api_version = DT_BACKEND_API_VERSION,
    .backend = DT_BACKEND_SIM,
    .name = "sim",
    .probe = sim_probe,
    .device_count = sim_device_count,
    .alloc = sim_alloc,
    .free = sim_free,
    .copy_in = sim_copy_in,
    .copy_out = sim_copy_out,
    .copy_device = sim_copy_device,
    .run = sim_run,
    .synchronize = NULL,
    .last_error = sim_last_error,
};

const dt_backend_iface *dt_sim_backend(void) { return &sim_iface; }
