/* runtime/backends/cpu/cpu_backend.c — the cpu backend's interface: host memory (plain malloc:
 * measured, 64-byte aligned_alloc or over-allocated blocks asked malloc for odd sizes that
 * missed its free lists, so large outputs were given back and faulted in again on every call),
 * a small cache of recently freed large blocks on top of it (a training step frees and asks
 * again for the same sizes: glibc gives large blocks back to the kernel, and every page then
 * faults in again) and a per-thread cache of the most recently freed small blocks (still in the
 * core's cache), copies, and the dispatch of operation descriptors to the kernels. */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "cpu_kernels.h"
#include "thread_cache.h"

static _Thread_local char tl_cpu_error[256];

int cpu_set_error(const char *what, const dt_op_desc *op) {
  snprintf(tl_cpu_error, sizeof tl_cpu_error, "%s (op %d, kind %d -> %d)", what, (int)op->op,
           (int)op->kind, (int)op->out_kind);
  return -1;
}

static const char *cpu_last_error(void) { return tl_cpu_error; }

static int cpu_probe(char *why, size_t why_len) {
  (void)why;
  (void)why_len;
  return 0;
}

static int cpu_device_count(void) { return 1; }

/* Plain malloc, exactly as a user's own arrays: 16-byte aligned (every SSE/AVX load of the
   kernels is fine with that), served from the same free lists, so a freed buffer is reused by
   the next allocation of its size instead of being given back and faulted in again. */
#define CACHE_MIN_BYTES ((size_t)256 << 10) /* smaller blocks: malloc's free lists do well */
#define CACHE_SLOTS 32
#define CACHE_MAX_BYTES ((size_t)512 << 20)

typedef struct block_cache {
  pthread_mutex_t lock;
  void *ptr[CACHE_SLOTS];
  size_t size[CACHE_SLOTS]; /* malloc_usable_size; 0: slot empty */
  size_t total;
} block_cache;

static block_cache g_cache = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* A cached block of at least `bytes` and at most 1/8 more, or NULL. */
static void *cache_take(size_t bytes) {
  void *p = NULL;
  pthread_mutex_lock(&g_cache.lock);
  int best = -1;
  for (int i = 0; i < CACHE_SLOTS; i++)
    if (g_cache.size[i] >= bytes && g_cache.size[i] - bytes <= bytes / 8 &&
        (best < 0 || g_cache.size[i] < g_cache.size[best]))
      best = i;
  if (best >= 0) {
    p = g_cache.ptr[best];
    g_cache.total -= g_cache.size[best];
    g_cache.ptr[best] = NULL;
    g_cache.size[best] = 0;
  }
  pthread_mutex_unlock(&g_cache.lock);
  return p;
}

/* Keeps ptr for reuse; 0 when the cache is full (the caller frees it). */
static int cache_put(void *ptr, size_t size) {
  int kept = 0;
  pthread_mutex_lock(&g_cache.lock);
  if (g_cache.total + size <= CACHE_MAX_BYTES)
    for (int i = 0; i < CACHE_SLOTS && !kept; i++)
      if (g_cache.size[i] == 0) {
        g_cache.ptr[i] = ptr;
        g_cache.size[i] = size;
        g_cache.total += size;
        kept = 1;
      }
  pthread_mutex_unlock(&g_cache.lock);
  return kept;
}

/* Blocks under CACHE_MIN_BYTES (a batch's activations: 32 KiB at batch 256, width 32) go
   through malloc's bins, which merge a freed block with its free neighbours and split another
   one off for the next request: a step's dozens of allocations cost hundreds of instructions
   each, and the block handed out is rarely the one just freed (still in the core's cache).
   Each thread keeps its most recently freed small blocks instead, newest first, and hands the
   newest one of a fitting size (within 1/8) out again; any thread may free a block another
   allocated. A thread's blocks go back to malloc when it exits. */
#define SMALL_MIN_BYTES ((size_t)1 << 10) /* smaller: malloc's per-thread cache does well */
#define SMALL_SLOTS 16

typedef struct small_cache {
  void *ptr[SMALL_SLOTS]; /* oldest first */
  size_t size[SMALL_SLOTS];
  int n;
  int registered;
} small_cache;

static _Thread_local small_cache tl_small;

static void small_drain(void *arg) {
  small_cache *c = arg;
  c->registered = 0; /* a later exit destructor that frees blocks registers it anew */
  while (c->n > 0) free(c->ptr[--c->n]);
}

DT_THREAD_CACHE_EXIT(small_exit, small_drain)

static void *small_take(size_t bytes) {
  small_cache *c = &tl_small;
  for (int i = c->n - 1; i >= 0; i--)
    if (c->size[i] >= bytes && c->size[i] - bytes <= bytes / 8) {
      void *p = c->ptr[i];
      for (int k = i; k + 1 < c->n; k++) {
        c->ptr[k] = c->ptr[k + 1];
        c->size[k] = c->size[k + 1];
      }
      c->n--;
      return p;
    }
  return NULL;
}

static void small_put(void *ptr, size_t size) {
  small_cache *c = &tl_small;
  small_exit_register(c, &c->registered);
  if (c->n == SMALL_SLOTS) { /* full: the oldest goes back to malloc */
    free(c->ptr[0]);
    for (int k = 0; k + 1 < c->n; k++) {
      c->ptr[k] = c->ptr[k + 1];
      c->size[k] = c->size[k + 1];
    }
    c->n--;
  }
  c->ptr[c->n] = ptr;
  c->size[c->n] = size;
  c->n++;
}

static void *cpu_alloc(int ordinal, size_t bytes) {
  (void)ordinal;
  void *p = NULL;
  if (bytes >= CACHE_MIN_BYTES)
    p = cache_take(bytes);
  else if (bytes >= SMALL_MIN_BYTES)
    p = small_take(bytes);
  return p != NULL ? p : malloc(bytes ? bytes : 1);
}

static void cpu_free(int ordinal, void *ptr) {
  (void)ordinal;
  if (ptr == NULL) return;
  const size_t size = malloc_usable_size(ptr);
  if (size >= CACHE_MIN_BYTES && cache_put(ptr, size)) return;
  if (size >= SMALL_MIN_BYTES && size < CACHE_MIN_BYTES) {
    small_put(ptr, size);
    return;
  }
  free(ptr);
}

static int cpu_copy(int ordinal, void *dst, const void *src, size_t bytes) {
  (void)ordinal;
  if (bytes) memcpy(dst, src, bytes);
  return 0;
}

static int cpu_run(int ordinal, const dt_op_desc *op) {
  (void)ordinal;
  switch (op->op) {
    case DT_OP_FILL:
      return cpu_fill(op);
    case DT_OP_ADD:
    case DT_OP_SUB:
    case DT_OP_MUL:
    case DT_OP_DIV:
    case DT_OP_GREATER:
      return cpu_binary(op);
    case DT_OP_WHERE:
      return cpu_where(op);
    case DT_OP_ADD_SCALAR:
    case DT_OP_MUL_SCALAR:
      return cpu_scalar(op);
    case DT_OP_NEG:
    case DT_OP_EXP:
    case DT_OP_LOG:
    case DT_OP_RELU:
    case DT_OP_SIGMOID:
    case DT_OP_TANH:
      return cpu_unary(op);
    case DT_OP_SUM_DIM:
      return cpu_sum_dim(op);
    case DT_OP_MATMUL:
      return cpu_matmul(op);
    case DT_OP_TRANSPOSE:
      return cpu_transpose(op);
    case DT_OP_COPY_SLICE:
      return cpu_copy_slice(op);
    case DT_OP_MSE:
      return cpu_mse(op);
    case DT_OP_RELU_GRAD:
    case DT_OP_SIGMOID_GRAD:
    case DT_OP_TANH_GRAD:
      return cpu_act_grad(op);
    case DT_OP_COUNT:
      break;
  }
  return cpu_set_error("unknown operation", op);
}

static const dt_backend_iface cpu_iface = {
    .api_version = DT_BACKEND_API_VERSION,
    .backend = DT_BACKEND_CPU,
    .name = "cpu",
    .probe = cpu_probe,
    .device_count = cpu_device_count,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .copy_in = cpu_copy,
    .copy_out = cpu_copy,
    .copy_device = cpu_copy,
    .run = cpu_run,
    .synchronize = NULL,
    .last_error = cpu_last_error,
};

const dt_backend_iface *dt_cpu_backend(void) { return &cpu_iface; }
