/* tests/ggml/runtime/emu_gpu.c — an emulated CUDA device for the ggml oracle (test only).
 *
 * A real ggml backend (ggml-backend-impl.h: registry, devices, buffer types, buffers, backend)
 * registered at start-up as GGML_BACKEND_DEVICE_TYPE_GPU with two devices, "CUDA0" and "CUDA1",
 * so the device registry (ggml_backend_dev_by_type, ggml_backend_init_by_type,
 * ggml_backend_init_best, ggml_backend_dev_init) finds it; it also provides ggml-cuda.h.
 *
 * Device memory is memory the host cannot touch: every buffer is a PROT_NONE mapping, opened
 * (mprotect) only inside the buffer's own set/get/memset/copy/clear entry points and the
 * backend's graph_compute, so a host read or write of tensor->data faults (SIGSEGV) where it
 * would on a GPU. The host pointer given to set/get is touched before the buffer opens, so
 * passing device memory as host memory faults too. Graphs are computed for real by ggml's CPU
 * backend on the opened memory; a graph with a tensor this device cannot read (another
 * device's buffer, plain host memory, or no buffer at all) aborts through GGML_ABORT with a
 * "device mismatch" or "tensor buffer not set" message, as a real multi-GPU mismatch fails.
 * The pinned host buffer type (ggml_backend_cuda_host_buffer_type) is host memory. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_gpu.h"
#include "ggml-backend-impl.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define EMU_N_DEVICES 2
#define EMU_ALIGNMENT 128
#define EMU_MEMORY ((size_t)1 << 30)

/* ---- device memory: the live PROT_NONE mappings ------------------------------------------ */

struct emu_mapping {
  char *base;
  size_t size; /* mapped bytes, a whole number of pages */
  int device;
  struct emu_mapping *next;
};

static struct emu_mapping *g_mappings;
static pthread_mutex_t g_mappings_lock = PTHREAD_MUTEX_INITIALIZER;

int tc_emu_gpu_device_of(const void *addr) {
  const char *p = addr;
  for (const struct emu_mapping *m = g_mappings; m; m = m->next)
    if (p >= m->base && p < m->base + m->size) return m->device;
  return -1;
}

static void emu_open(const struct emu_mapping *m) {
  if (mprotect(m->base, m->size, PROT_READ | PROT_WRITE) != 0) GGML_ABORT("emu-gpu: mprotect failed");
}

static void emu_close(const struct emu_mapping *m) {
  if (mprotect(m->base, m->size, PROT_NONE) != 0) GGML_ABORT("emu-gpu: mprotect failed");
}

/* Opens or closes every buffer of one device (a graph may use several). */
static void emu_set_device_open(int device, int open) {
  pthread_mutex_lock(&g_mappings_lock);
  for (const struct emu_mapping *m = g_mappings; m; m = m->next)
    if (m->device == device) (open ? emu_open : emu_close)(m);
  pthread_mutex_unlock(&g_mappings_lock);
}

static struct emu_mapping *emu_map(int device, size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t len = size ? (size + page - 1) / page * page : page;
  void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  struct emu_mapping *m = malloc(sizeof *m);
  if (!m) {
    munmap(p, len);
    return NULL;
  }
  m->base = p;
  m->size = len;
  m->device = device;
  pthread_mutex_lock(&g_mappings_lock);
  m->next = g_mappings;
  g_mappings = m;
  pthread_mutex_unlock(&g_mappings_lock);
  return m;
}

static void emu_unmap(struct emu_mapping *m) {
  pthread_mutex_lock(&g_mappings_lock);
  for (struct emu_mapping **pp = &g_mappings; *pp; pp = &(*pp)->next) {
    if (*pp == m) {
      *pp = m->next;
      break;
    }
  }
  pthread_mutex_unlock(&g_mappings_lock);
  munmap(m->base, m->size);
  free(m);
}

/* The host side of a copy must be host memory: touch it while the device is still closed, so
 * device memory passed as a host pointer faults (a real cudaMemcpy fails on it). */
static void emu_touch_host(const void *data, size_t size) {
  if (size == 0) return;
  const volatile char *p = data;
  (void)p[0];
  (void)p[size - 1];
}

/* ---- buffers ----------------------------------------------------------------------------- */

static const char *emu_buft_name(ggml_backend_buffer_type_t buft);

static int emu_buffer_is_device(ggml_backend_buffer_t buffer) {
  return buffer && buffer->buft && buffer->buft->iface.get_name == emu_buft_name;
}

static void emu_buffer_free(ggml_backend_buffer_t buffer) { emu_unmap(buffer->context); }

static void *emu_buffer_base(ggml_backend_buffer_t buffer) {
  return ((struct emu_mapping *)buffer->context)->base;
}

static void emu_buffer_memset(ggml_backend_buffer_t buffer, struct ggml_tensor *tensor,
                              uint8_t value, size_t offset, size_t size) {
  emu_open(buffer->context);
  memset((char *)tensor->data + offset, value, size);
  emu_close(buffer->context);
}

static void emu_buffer_set(ggml_backend_buffer_t buffer, struct ggml_tensor *tensor,
                           const void *data, size_t offset, size_t size) {
  emu_touch_host(data, size);
  emu_open(buffer->context);
  memcpy((char *)tensor->data + offset, data, size);
  emu_close(buffer->context);
}

static void emu_buffer_get(ggml_backend_buffer_t buffer, const struct ggml_tensor *tensor,
                           void *data, size_t offset, size_t size) {
  emu_touch_host(data, size);
  emu_open(buffer->context);
  memcpy(data, (const char *)tensor->data + offset, size);
  emu_close(buffer->context);
}

/* Device to device (peer copies included); a host source goes through set_tensor instead. */
static bool emu_buffer_cpy(ggml_backend_buffer_t buffer, const struct ggml_tensor *src,
                           struct ggml_tensor *dst) {
  ggml_backend_buffer_t sbuf = src->view_src ? src->view_src->buffer : src->buffer;
  if (!emu_buffer_is_device(sbuf)) return false;
  emu_open(sbuf->context);
  emu_open(buffer->context);
  memcpy(dst->data, src->data, ggml_nbytes(src));
  emu_close(buffer->context);
  emu_close(sbuf->context);
  return true;
}

static void emu_buffer_clear(ggml_backend_buffer_t buffer, uint8_t value) {
  struct emu_mapping *m = buffer->context;
  emu_open(m);
  memset(m->base, value, buffer->size);
  emu_close(m);
}

static const struct ggml_backend_buffer_i emu_buffer_iface = {
    .free_buffer = emu_buffer_free,
    .get_base = emu_buffer_base,
    .init_tensor = NULL,
    .memset_tensor = emu_buffer_memset,
    .set_tensor = emu_buffer_set,
    .get_tensor = emu_buffer_get,
    .set_tensor_2d = NULL,
    .get_tensor_2d = NULL,
    .cpy_tensor = emu_buffer_cpy,
    .clear = emu_buffer_clear,
    .reset = NULL,
};

/* ---- devices and their buffer types ------------------------------------------------------ */

struct emu_device {
  int index;
  char name[16];
  char description[48];
};

static struct emu_device g_device_ctx[EMU_N_DEVICES];
static struct ggml_backend_device g_devices[EMU_N_DEVICES];
static struct ggml_backend_buffer_type g_bufts[EMU_N_DEVICES];
static struct ggml_backend_buffer_type g_host_buft;
static struct ggml_backend_reg g_reg;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static int emu_buft_device(ggml_backend_buffer_type_t buft) {
  return ((struct emu_device *)buft->device->context)->index;
}

static const char *emu_buft_name(ggml_backend_buffer_type_t buft) {
  return ((struct emu_device *)buft->device->context)->name;
}

static ggml_backend_buffer_t emu_buft_alloc(ggml_backend_buffer_type_t buft, size_t size) {
  struct emu_mapping *m = emu_map(emu_buft_device(buft), size);
  if (!m) return NULL;
  return ggml_backend_buffer_init(buft, emu_buffer_iface, m, size);
}

static size_t emu_buft_alignment(ggml_backend_buffer_type_t buft) {
  (void)buft;
  return EMU_ALIGNMENT;
}

static bool emu_buft_is_host(ggml_backend_buffer_type_t buft) {
  (void)buft;
  return false;
}

static const struct ggml_backend_buffer_type_i emu_buft_iface = {
    .get_name = emu_buft_name,
    .alloc_buffer = emu_buft_alloc,
    .get_alignment = emu_buft_alignment,
    .get_max_size = NULL,
    .get_alloc_size = NULL,
    .is_host = emu_buft_is_host,
};

/* Pinned host memory: a CPU buffer of this buffer type (host access is right). */
static const char *emu_host_buft_name(ggml_backend_buffer_type_t buft) {
  (void)buft;
  return "CUDA_Host";
}

static void emu_host_buffer_free(ggml_backend_buffer_t buffer) { free(buffer->context); }

static ggml_backend_buffer_t emu_host_buft_alloc(ggml_backend_buffer_type_t buft, size_t size) {
  void *p = NULL;
  if (posix_memalign(&p, EMU_ALIGNMENT, size ? size : 1) != 0) return NULL;
  ggml_backend_buffer_t buffer = ggml_backend_cpu_buffer_from_ptr(p, size);
  if (!buffer) {
    free(p);
    return NULL;
  }
  buffer->buft = buft;
  buffer->context = p;
  buffer->iface.free_buffer = emu_host_buffer_free;
  return buffer;
}

static bool emu_host_buft_is_host(ggml_backend_buffer_type_t buft) {
  (void)buft;
  return true;
}

static const struct ggml_backend_buffer_type_i emu_host_buft_iface = {
    .get_name = emu_host_buft_name,
    .alloc_buffer = emu_host_buft_alloc,
    .get_alignment = emu_buft_alignment,
    .get_max_size = NULL,
    .get_alloc_size = NULL,
    .is_host = emu_host_buft_is_host,
};

/* ---- the backend (stream) ---------------------------------------------------------------- */

struct emu_backend {
  int device;
  ggml_backend_t cpu; /* computes the graphs, on the opened device memory */
};

static ggml_guid_t emu_guid(void) {
  static ggml_guid guid = {0x74, 0x63, 0x2d, 0x65, 0x6d, 0x75, 0x2d, 0x67,
                           0x70, 0x75, 0x2d, 0x63, 0x75, 0x64, 0x61, 0x00};
  return &guid;
}

static const char *emu_backend_name(ggml_backend_t backend) {
  return g_device_ctx[((struct emu_backend *)backend->context)->device].name;
}

static void emu_backend_free(ggml_backend_t backend) {
  struct emu_backend *ctx = backend->context;
  ggml_backend_free(ctx->cpu);
  free(ctx);
  free(backend);
}

/* Where this device can read tensor t: its own buffers and pinned host memory. */
static void emu_check_reachable(int device, const struct ggml_tensor *t) {
  ggml_backend_buffer_t buf = t->view_src ? t->view_src->buffer : t->buffer;
  const char *name = t->name[0] ? t->name : ggml_op_desc(t);
  if (!buf) {
    if (!t->data)
      GGML_ABORT("emu-gpu: CUDA%d: tensor '%s': tensor buffer not set (its context was never "
                 "allocated)", device, name);
    GGML_ABORT("emu-gpu: CUDA%d: device mismatch: tensor '%s' is in a context's own host memory, "
               "which the device cannot read", device, name);
  }
  if (emu_buffer_is_device(buf)) {
    if (emu_buft_device(buf->buft) != device)
      GGML_ABORT("emu-gpu: CUDA%d: device mismatch: tensor '%s' is in %s memory (compute on "
                 "the backend that holds it, or copy it)", device, name,
                 ggml_backend_buffer_name(buf));
    return;
  }
  if (buf->buft == &g_host_buft) return;
  GGML_ABORT("emu-gpu: CUDA%d: device mismatch: tensor '%s' is in %s memory, which the device "
             "cannot read", device, name, ggml_backend_buffer_name(buf));
}

static enum ggml_status emu_backend_graph_compute(ggml_backend_t backend,
                                                  struct ggml_cgraph *cgraph) {
  struct emu_backend *ctx = backend->context;
  for (int i = 0; i < ggml_graph_n_nodes(cgraph); i++) {
    const struct ggml_tensor *node = ggml_graph_node(cgraph, i);
    emu_check_reachable(ctx->device, node);
    for (int s = 0; s < GGML_MAX_SRC; s++)
      if (node->src[s]) emu_check_reachable(ctx->device, node->src[s]);
  }
  emu_set_device_open(ctx->device, 1);
  enum ggml_status status = ggml_backend_graph_compute(ctx->cpu, cgraph);
  emu_set_device_open(ctx->device, 0);
  return status;
}

static const struct ggml_backend_i emu_backend_iface = {
    .get_name = emu_backend_name,
    .free = emu_backend_free,
    .set_tensor_async = NULL,
    .get_tensor_async = NULL,
    .set_tensor_2d_async = NULL,
    .get_tensor_2d_async = NULL,
    .cpy_tensor_async = NULL,
    .synchronize = NULL,
    .graph_plan_create = NULL,
    .graph_plan_free = NULL,
    .graph_plan_update = NULL,
    .graph_plan_compute = NULL,
    .graph_compute = emu_backend_graph_compute,
    .event_record = NULL,
    .event_wait = NULL,
    .graph_optimize = NULL,
};

/* ---- device interface -------------------------------------------------------------------- */

static struct emu_device *emu_dev(ggml_backend_dev_t dev) { return dev->context; }

static const char *emu_dev_name(ggml_backend_dev_t dev) { return emu_dev(dev)->name; }

static const char *emu_dev_description(ggml_backend_dev_t dev) {
  return emu_dev(dev)->description;
}

static void emu_dev_memory(ggml_backend_dev_t dev, size_t *free_mem, size_t *total) {
  (void)dev;
  *free_mem = EMU_MEMORY;
  *total = EMU_MEMORY;
}

static enum ggml_backend_dev_type emu_dev_type(ggml_backend_dev_t dev) {
  (void)dev;
  return GGML_BACKEND_DEVICE_TYPE_GPU;
}

static void emu_dev_props(ggml_backend_dev_t dev, struct ggml_backend_dev_props *props) {
  memset(props, 0, sizeof *props);
  props->name = emu_dev_name(dev);
  props->description = emu_dev_description(dev);
  props->type = GGML_BACKEND_DEVICE_TYPE_GPU;
  emu_dev_memory(dev, &props->memory_free, &props->memory_total);
  props->caps.host_buffer = true;
}

static ggml_backend_t emu_dev_init(ggml_backend_dev_t dev, const char *params) {
  (void)params;
  return ggml_backend_cuda_init(emu_dev(dev)->index);
}

static ggml_backend_buffer_type_t emu_dev_buft(ggml_backend_dev_t dev) {
  return ggml_backend_cuda_buffer_type(emu_dev(dev)->index);
}

static ggml_backend_buffer_type_t emu_dev_host_buft(ggml_backend_dev_t dev) {
  (void)dev;
  return ggml_backend_cuda_host_buffer_type();
}

/* Every op the CPU backend computes (it computes this device's graphs). */
static bool emu_dev_supports_op(ggml_backend_dev_t dev, const struct ggml_tensor *op) {
  (void)dev;
  return ggml_backend_dev_supports_op(ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU), op);
}

static bool emu_dev_supports_buft(ggml_backend_dev_t dev, ggml_backend_buffer_type_t buft) {
  return buft->iface.get_name == emu_buft_name && emu_buft_device(buft) == emu_dev(dev)->index;
}

static const struct ggml_backend_device_i emu_dev_iface = {
    .get_name = emu_dev_name,
    .get_description = emu_dev_description,
    .get_memory = emu_dev_memory,
    .get_type = emu_dev_type,
    .get_props = emu_dev_props,
    .init_backend = emu_dev_init,
    .get_buffer_type = emu_dev_buft,
    .get_host_buffer_type = emu_dev_host_buft,
    .buffer_from_host_ptr = NULL,
    .supports_op = emu_dev_supports_op,
    .supports_buft = emu_dev_supports_buft,
    .offload_op = NULL,
    .event_new = NULL,
    .event_free = NULL,
    .event_synchronize = NULL,
};

/* ---- registry ---------------------------------------------------------------------------- */

static const char *emu_reg_name(ggml_backend_reg_t reg) {
  (void)reg;
  return GGML_CUDA_NAME;
}

static size_t emu_reg_count(ggml_backend_reg_t reg) {
  (void)reg;
  return EMU_N_DEVICES;
}

static ggml_backend_dev_t emu_reg_device(ggml_backend_reg_t reg, size_t index) {
  (void)reg;
  return index < EMU_N_DEVICES ? &g_devices[index] : NULL;
}

static void *emu_reg_proc_address(ggml_backend_reg_t reg, const char *name) {
  (void)reg;
  (void)name;
  return NULL;
}

static const struct ggml_backend_reg_i emu_reg_iface = {
    .get_name = emu_reg_name,
    .get_device_count = emu_reg_count,
    .get_device = emu_reg_device,
    .get_proc_address = emu_reg_proc_address,
};

static void emu_init_once(void) {
  g_reg.api_version = GGML_BACKEND_API_VERSION;
  g_reg.iface = emu_reg_iface;
  g_reg.context = NULL;
  for (int i = 0; i < EMU_N_DEVICES; i++) {
    g_device_ctx[i].index = i;
    snprintf(g_device_ctx[i].name, sizeof g_device_ctx[i].name, "%s%d", GGML_CUDA_NAME, i);
    snprintf(g_device_ctx[i].description, sizeof g_device_ctx[i].description,
             "tagcheck emulated GPU %d", i);
    g_devices[i].iface = emu_dev_iface;
    g_devices[i].reg = &g_reg;
    g_devices[i].context = &g_device_ctx[i];
    g_bufts[i].iface = emu_buft_iface;
    g_bufts[i].device = &g_devices[i];
    g_bufts[i].context = NULL;
  }
  g_host_buft.iface = emu_host_buft_iface;
  g_host_buft.device = &g_devices[0];
  g_host_buft.context = NULL;
}

/* Registered before main, so the device registry lists CPU, then CUDA0 and CUDA1. */
__attribute__((constructor)) static void emu_register(void) {
  ggml_backend_register(ggml_backend_cuda_reg());
}

/* ---- ggml-cuda.h ------------------------------------------------------------------------- */

ggml_backend_reg_t ggml_backend_cuda_reg(void) {
  pthread_once(&g_once, emu_init_once);
  return &g_reg;
}

ggml_backend_t ggml_backend_cuda_init(int device) {
  ggml_backend_cuda_reg();
  if (device < 0 || device >= EMU_N_DEVICES) {
    fprintf(stderr, "%s: invalid device %d\n", __func__, device);
    return NULL;
  }
  struct emu_backend *ctx = malloc(sizeof *ctx);
  ggml_backend_t backend = malloc(sizeof *backend);
  ggml_backend_t cpu = ggml_backend_cpu_init();
  if (!ctx || !backend || !cpu) {
    free(ctx);
    free(backend);
    if (cpu) ggml_backend_free(cpu);
    return NULL;
  }
  ggml_backend_cpu_set_n_threads(cpu, 1);
  ctx->device = device;
  ctx->cpu = cpu;
  backend->guid = emu_guid();
  backend->iface = emu_backend_iface;
  backend->device = &g_devices[device];
  backend->context = ctx;
  return backend;
}

bool ggml_backend_is_cuda(ggml_backend_t backend) {
  return backend != NULL && ggml_guid_matches(backend->guid, emu_guid());
}

ggml_backend_buffer_type_t ggml_backend_cuda_buffer_type(int device) {
  ggml_backend_cuda_reg();
  return device >= 0 && device < EMU_N_DEVICES ? &g_bufts[device] : NULL;
}

ggml_backend_buffer_type_t ggml_backend_cuda_host_buffer_type(void) {
  ggml_backend_cuda_reg();
  return &g_host_buft;
}

bool ggml_backend_cuda_allreduce_tensor(ggml_backend_t *backends, struct ggml_tensor **tensors,
                                        size_t n_backends) {
  (void)backends;
  (void)tensors;
  (void)n_backends;
  return false; /* not supported: callers fall back, as with a CUDA build without NCCL */
}

int ggml_backend_cuda_get_device_count(void) { return EMU_N_DEVICES; }

void ggml_backend_cuda_get_device_description(int device, char *description,
                                              size_t description_size) {
  ggml_backend_cuda_reg();
  snprintf(description, description_size, "%s",
           device >= 0 && device < EMU_N_DEVICES ? g_device_ctx[device].description : "");
}

void ggml_backend_cuda_get_device_memory(int device, size_t *free_mem, size_t *total) {
  ggml_backend_cuda_reg();
  if (device >= 0 && device < EMU_N_DEVICES) {
    emu_dev_memory(&g_devices[device], free_mem, total);
  } else {
    *free_mem = 0;
    *total = 0;
  }
}

bool ggml_backend_cuda_register_host_buffer(void *buffer, size_t size) {
  (void)buffer;
  (void)size;
  return false; /* as CUDA without GGML_CUDA_REGISTER_HOST: the memory stays pageable */
}

void ggml_backend_cuda_unregister_host_buffer(void *buffer) { (void)buffer; }
