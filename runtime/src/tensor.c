/* runtime/src/tensor.c — tensor objects and reference-counted storage: shape validation,
 * allocation (with test-only failure injection at every site), per-thread reuse of storage
 * descriptors, and dt_free (the live-object counters are live.c's). Tensor objects live in handle.c's slot table; callers hold encoded handles. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "thread_cache.h"

/* ---- allocation-failure injection (tests) ---- */

_Thread_local int64_t dt__tl_fail_after;

void dt__fail_alloc_after(int64_t n) { dt__tl_fail_after = n > 0 ? n : 0; }

void *dt__host_alloc(const dt_site *site, size_t bytes) {
  void *p = dt__alloc_should_fail() ? NULL : malloc(bytes ? bytes : 1);
  if (p == NULL)
    dt__fail(site, DT_ERR_OUT_OF_MEMORY, "Out of host memory (%zu bytes of scratch space)", bytes);
  return p;
}

/* ---- shapes ---- */

size_t dt__kind_size(dt_kind k) {
  switch (k) {
    case DT_FLOAT:
      return sizeof(float);
    case DT_INT:
      return sizeof(int64_t);
    case DT_BOOL:
      return sizeof(uint8_t);
  }
  return 0;
}

int dt__kind_valid(dt_kind k) { return dt__kind_size(k) != 0; }

dt_status dt__validate_shape(const dt_site *site, int rank, const int64_t *shape, int64_t *numel) {
  if (rank < 0 || rank > DT_MAX_RANK)
    return dt__fail(site, DT_ERR_INVALID_ARGUMENT, "Rank %d is out of range (0..%d)", rank,
                    DT_MAX_RANK);
  if (rank > 0 && shape == NULL)
    return dt__fail(site, DT_ERR_INVALID_ARGUMENT, "The shape is NULL for a rank-%d tensor", rank);
  /* The largest element count whose bytes (8 per element at most) fit in an allocation. */
  const int64_t limit = (int64_t)((SIZE_MAX / 8 < (size_t)(INT64_MAX / 8)) ? SIZE_MAX / 8
                                                                           : (size_t)(INT64_MAX / 8));
  int64_t n = 1;
  for (int i = 0; i < rank; i++)
    if (shape[i] < 0)
      return dt__fail(site, DT_ERR_INVALID_ARGUMENT, "Dimension %d is negative (%lld)", i,
                      (long long)shape[i]);
  for (int i = 0; i < rank; i++) {
    if (shape[i] == 0) {
      n = 0;
      break;
    }
    if (n > limit / shape[i])
      return dt__fail(site, DT_ERR_INVALID_ARGUMENT,
                      "The element count of the shape overflows (dimension %d is %lld)", i,
                      (long long)shape[i]);
    n *= shape[i];
  }
  if (numel != NULL) *numel = n;
  return DT_OK;
}

/* ---- storage descriptors: freed ones are kept per thread for the next storages (malloc and
   free of a descriptor cost a tenth of a one-element operation). A thread's cache is given back
   to malloc when the thread exits; descriptors are internal, so nothing can point at one that
   has been freed. ---- */

#define DESCRIPTOR_CACHE 32

typedef struct descriptor_cache {
  dt_storage *free[DESCRIPTOR_CACHE];
  int n;
  int registered;
} descriptor_cache;

static _Thread_local descriptor_cache tl_descriptors;

static void descriptors_drain(void *arg) {
  descriptor_cache *c = arg;
  c->registered = 0; /* a later exit destructor that frees storage registers it anew */
  while (c->n > 0) free(c->free[--c->n]);
}

DT_THREAD_CACHE_EXIT(descriptor_exit, descriptors_drain)

static dt_storage *descriptor_new(void) {
  descriptor_cache *c = &tl_descriptors;
  return c->n > 0 ? c->free[--c->n] : malloc(sizeof(dt_storage));
}

static void descriptor_free(dt_storage *s) {
  descriptor_cache *c = &tl_descriptors;
  descriptor_exit_register(c, &c->registered);
  if (c->n < DESCRIPTOR_CACHE)
    c->free[c->n++] = s;
  else
    free(s);
}

/* ---- storage ---- */

dt_storage *dt__storage_new(const dt_site *site, const dt_backend_iface *iface, dt_device d,
                            size_t bytes) {
  dt_storage *s = dt__alloc_should_fail() ? NULL : descriptor_new();
  if (s == NULL) {
    dt__fail(site, DT_ERR_OUT_OF_MEMORY, "Out of host memory for a storage descriptor");
    return NULL;
  }
  void *data = dt__alloc_should_fail() ? NULL : iface->alloc(d.ordinal, bytes);
  if (data == NULL) {
    descriptor_free(s);
    char name[64];
    dt_device_name(dt_inner_device(d), name, sizeof name);
    dt__fail(site, DT_ERR_OUT_OF_MEMORY, "Out of memory allocating %zu bytes on %s", bytes, name);
    return NULL;
  }
  atomic_init(&s->refs, 1);
  s->backend = d.backend;
  s->ordinal = d.ordinal;
  s->iface = iface;
  s->data = data;
  s->bytes = bytes;
  dt__live_add(DT_LIVE_STORAGES, 1);
  return s;
}

void dt__storage_retain(dt_storage *s) {
  if (s != NULL) atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

void dt__storage_release(dt_storage *s) {
  if (s == NULL) return;
  /* The only reference (the common case: a temporary's storage) is ours alone: nobody else can
     reach the storage to retain it, so no read-modify-write is needed to drop it. */
  if (atomic_load_explicit(&s->refs, memory_order_acquire) != 1 &&
      atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
    return;
  s->iface->free(s->ordinal, s->data);
  descriptor_free(s);
  dt__live_add(DT_LIVE_STORAGES, -1);
}

/* ---- tensors ---- */

static dt_tensor *tensor_shell(const dt_site *site, dt_device d, dt_kind k, int rank,
                               const int64_t *shape, int64_t numel) {
  dt_tensor *t = dt__alloc_should_fail() ? NULL : dt__object_new();
  if (t == NULL) {
    dt__fail(site, DT_ERR_OUT_OF_MEMORY, "Out of host memory for a tensor object");
    return NULL;
  }
  t->device = d;
  t->device.autodiff = d.autodiff != 0;
  t->kind = k;
  t->rank = rank;
  for (int i = 0; i < rank; i++) t->shape[i] = shape[i];
  for (int i = rank; i < DT_MAX_RANK; i++) t->shape[i] = 0;
  t->numel = numel;
  t->storage = NULL;
  t->node = NULL;
  t->requires_grad = 0;
  dt__live_add(DT_LIVE_TENSORS, 1);
  return t;
}

dt_tensor *dt__tensor_new(const dt_site *site, dt_device d, dt_kind k, int rank,
                          const int64_t *shape) {
  const dt_backend_iface *iface = dt__backend_for(site, d);
  if (iface == NULL) return NULL;
  if (!dt__kind_valid(k)) {
    dt__fail(site, DT_ERR_INVALID_ARGUMENT, "Invalid tensor kind %d", (int)k);
    return NULL;
  }
  int64_t numel;
  if (dt__validate_shape(site, rank, shape, &numel) != DT_OK) return NULL;
  dt_tensor *t = tensor_shell(site, d, k, rank, shape, numel);
  if (t == NULL) return NULL;
  t->storage = dt__storage_new(site, iface, d, (size_t)numel * dt__kind_size(k));
  if (t->storage == NULL) {
    dt__live_add(DT_LIVE_TENSORS, -1);
    dt__object_delete(t);
    return NULL;
  }
  return t;
}

dt_tensor *dt__tensor_view(const dt_site *site, const dt_tensor *t, dt_device d, int rank,
                           const int64_t *shape) {
  dt_tensor *v = tensor_shell(site, d, t->kind, rank, shape, t->numel);
  if (v == NULL) return NULL;
  v->storage = t->storage;
  dt__storage_retain(v->storage);
  return v;
}

/* Releases what the object holds (graph node, storage) and counts it gone. */
static void tensor_release(dt_tensor *t) {
  if (t->device.autodiff) dt__ad_release(t);
  dt__storage_release(t->storage);
  t->storage = NULL;
  dt__live_add(DT_LIVE_TENSORS, -1);
}

void dt__tensor_free(dt_tensor *t) {
  if (t == NULL) return;
  tensor_release(t);
  dt__object_delete(t);
}

void dt_free(dt_tensor *h) {
  if (h == NULL) return;
  dt_site site = {NULL, 0, "dt_free"};
  /* A stale or foreign handle is reported and touches nothing; a live one is made stale first,
     so a second dt_free of it (on any thread, even at the same time) is reported too. */
  dt_tensor *t = dt__handle_take(&site, h, "The tensor");
  if (t == NULL) return;
  tensor_release(t);
  dt__object_recycle(t);
}
