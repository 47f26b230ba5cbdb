/* runtime/src/device.c — device values (dt_cpu, dt_sim, dt_cuda, dt_autodiff, names, equality)
 * and the registry of backends: cpu and sim are registered on first use, the cuda plugin is
 * tried once; dt__backend_for turns a device into a usable interface or a backend-unavailable
 * failure naming the reason. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/sim/sim.h"
#include "internal.h"
#include "plugin.h"

#define DT_BACKEND_SLOTS 4 /* indexed by dt_backend (1..3) */

typedef struct dt_registry_entry {
  _Atomic(const dt_backend_iface *) iface; /* NULL: not registered */
  int usable;                              /* probe() said yes */
  int count;                               /* device_count() at registration */
  char why[256];                           /* why not usable */
} dt_registry_entry;

static dt_registry_entry g_registry[DT_BACKEND_SLOTS];
static pthread_mutex_t g_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_builtin_once = PTHREAD_ONCE_INIT;
static pthread_once_t g_cuda_once = PTHREAD_ONCE_INIT;
static char g_cuda_why[256];

/* ---- device values ---- */

dt_device dt_cpu(void) { return (dt_device){DT_BACKEND_CPU, 0, 0}; }
dt_device dt_sim(int ordinal) { return (dt_device){DT_BACKEND_SIM, ordinal, 0}; }
dt_device dt_cuda(int ordinal) { return (dt_device){DT_BACKEND_CUDA, ordinal, 0}; }

dt_device dt_autodiff_at(DT_SITE_PARAMS, dt_device inner) {
  dt_site site = {dt_file_, dt_line_, "dt_autodiff"};
  if (dt__check_plain_device(&site, inner) != DT_OK) return inner;
  dt__ok();
  inner.autodiff = 1;
  return inner;
}
dt_device dt_autodiff(dt_device inner) { return dt_autodiff_at(NULL, 0, inner); }

dt_device dt_inner_device(dt_device d) {
  d.autodiff = 0;
  return d;
}

int dt_device_equal(dt_device a, dt_device b) {
  return a.backend == b.backend && a.ordinal == b.ordinal && (a.autodiff != 0) == (b.autodiff != 0);
}

static const char *backend_name(dt_backend b) {
  switch (b) {
    case DT_BACKEND_CPU:
      return "cpu";
    case DT_BACKEND_SIM:
      return "sim";
    case DT_BACKEND_CUDA:
      return "cuda";
  }
  return NULL;
}

int dt_device_name(dt_device d, char *buf, size_t n) {
  char inner[48];
  const char *b = backend_name(d.backend);
  if (b == NULL)
    snprintf(inner, sizeof inner, "invalid-backend(%d):%d", (int)d.backend, d.ordinal);
  else if (d.backend == DT_BACKEND_CPU && d.ordinal == 0)
    snprintf(inner, sizeof inner, "cpu");
  else
    snprintf(inner, sizeof inner, "%s:%d", b, d.ordinal);
  char empty[1];
  if (buf == NULL || n == 0) {
    buf = empty;
    n = 1;
  }
  return d.autodiff ? snprintf(buf, n, "autodiff<%s>", inner) : snprintf(buf, n, "%s", inner);
}

int dt__device_valid(dt_device d) { return backend_name(d.backend) != NULL && d.ordinal >= 0; }

/* ---- registry ---- */

static int iface_complete(const dt_backend_iface *f) {
  return f != NULL && f->api_version == DT_BACKEND_API_VERSION && backend_name(f->backend) != NULL &&
         f->name != NULL && f->probe != NULL && f->device_count != NULL && f->alloc != NULL &&
         f->free != NULL && f->copy_in != NULL && f->copy_out != NULL && f->run != NULL;
}

static int register_locked(const dt_backend_iface *iface) {
  if (!iface_complete(iface)) return -1;
  dt_registry_entry *e = &g_registry[iface->backend];
  e->why[0] = '\0';
  e->usable = iface->probe(e->why, sizeof e->why) == 0;
  e->count = e->usable ? iface->device_count() : 0;
  if (e->usable && e->count <= 0) {
    e->usable = 0;
    snprintf(e->why, sizeof e->why, "no %s device present", iface->name);
  }
  atomic_store(&e->iface, iface);
  return 0;
}

static void register_builtins(void) {
  pthread_mutex_lock(&g_registry_lock);
  if (atomic_load(&g_registry[DT_BACKEND_CPU].iface) == NULL) register_locked(dt_cpu_backend());
  if (atomic_load(&g_registry[DT_BACKEND_SIM].iface) == NULL) register_locked(dt_sim_backend());
  pthread_mutex_unlock(&g_registry_lock);
}

static void load_cuda(void) {
  const dt_backend_iface *f = dt__load_cuda_plugin(g_cuda_why, sizeof g_cuda_why);
  if (f == NULL) return;
  pthread_mutex_lock(&g_registry_lock);
  if (register_locked(f) != 0)
    snprintf(g_cuda_why, sizeof g_cuda_why, "the cuda plugin's interface is incomplete or of "
                                            "another API version");
  pthread_mutex_unlock(&g_registry_lock);
}

int dt_register_backend(const dt_backend_iface *iface) {
  pthread_once(&g_builtin_once, register_builtins);
  pthread_mutex_lock(&g_registry_lock);
  int rc = register_locked(iface);
  pthread_mutex_unlock(&g_registry_lock);
  return rc;
}

/* The registry entry for b (after loading what can be loaded), or NULL when none is registered. */
static const dt_registry_entry *entry_for(dt_backend b) {
  pthread_once(&g_builtin_once, register_builtins);
  switch (b) {
    case DT_BACKEND_CPU:
    case DT_BACKEND_SIM:
      break;
    case DT_BACKEND_CUDA:
      if (atomic_load_explicit(&g_registry[b].iface, memory_order_acquire) == NULL)
        pthread_once(&g_cuda_once, load_cuda);
      break;
  }
  if (backend_name(b) == NULL) return NULL;
  const dt_registry_entry *e = &g_registry[b];
  return atomic_load_explicit(&e->iface, memory_order_acquire) != NULL ? e : NULL;
}

int dt_backend_available(dt_backend b) {
  const dt_registry_entry *e = entry_for(b);
  return e != NULL && e->usable;
}

const dt_backend_iface *dt__backend_for(const dt_site *site, dt_device d) {
  char name[64];
  if (!dt__device_valid(d)) {
    dt_device_name(d, name, sizeof name);
    dt__fail(site, DT_ERR_INVALID_ARGUMENT, "Invalid device %s (unknown backend or negative ordinal)",
             name);
    return NULL;
  }
  const dt_registry_entry *e = entry_for(d.backend);
  if (e != NULL && e->usable && d.ordinal < e->count)
    return atomic_load_explicit(&e->iface, memory_order_relaxed);
  if (e == NULL || !e->usable) { /* the allocates check */
    dt_msg_args a = {0};
    a.backend = backend_name(d.backend);
    a.got = d;
    a.why = e != NULL ? e->why : d.backend == DT_BACKEND_CUDA ? g_cuda_why : "not registered";
    dt__fail_message(site, DT_MSG_UNAVAILABLE, &a);
  } else {
    dt_device_name(d, name, sizeof name);
    dt__fail(site, DT_ERR_BACKEND_UNAVAILABLE,
             "Device %s does not exist (backend %s has %d device%s)", name,
             backend_name(d.backend), e->count, e->count == 1 ? "" : "s");
  }
  return NULL;
}
