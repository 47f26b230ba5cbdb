/* runtime/src/create.c — the creation functions of SPEC §3 (dt_zeros, dt_ones, dt_full,
 * dt_from_floats, dt_from_ints, dt_randn) and their call-site twins. A tensor lives on the device
 * it is created on; the first allocation on an unavailable backend fails here. */
#include <stdlib.h>

#include "internal.h"

/* The caller's handle on a new object (NULL stays NULL: the failure is recorded). */
static dt_tensor *created(dt_tensor *t) {
  if (t == NULL) return NULL;
  dt__ok();
  return dt__handle_of(t);
}

dt_tensor *dt_zeros_at(DT_SITE_PARAMS, dt_device d, dt_kind k, int rank, const int64_t *shape) {
  dt_site site = {dt_file_, dt_line_, "dt_zeros"};
  return created(dt__prim_fill(&site, d, k, 0.0f, rank, shape));
}
dt_tensor *dt_zeros(dt_device d, dt_kind k, int rank, const int64_t *shape) {
  return dt_zeros_at(NULL, 0, d, k, rank, shape);
}

dt_tensor *dt_ones_at(DT_SITE_PARAMS, dt_device d, dt_kind k, int rank, const int64_t *shape) {
  dt_site site = {dt_file_, dt_line_, "dt_ones"};
  return created(dt__prim_fill(&site, d, k, 1.0f, rank, shape));
}
dt_tensor *dt_ones(dt_device d, dt_kind k, int rank, const int64_t *shape) {
  return dt_ones_at(NULL, 0, d, k, rank, shape);
}

dt_tensor *dt_full_at(DT_SITE_PARAMS, dt_device d, float value, int rank, const int64_t *shape) {
  dt_site site = {dt_file_, dt_line_, "dt_full"};
  return created(dt__prim_fill(&site, d, DT_FLOAT, value, rank, shape));
}
dt_tensor *dt_full(dt_device d, float value, int rank, const int64_t *shape) {
  return dt_full_at(NULL, 0, d, value, rank, shape);
}

/* A new tensor holding a copy of the host data (numel elements of kind k). */
static dt_tensor *from_host(const dt_site *site, dt_device d, dt_kind k, const void *data,
                            int rank, const int64_t *shape) {
  dt_tensor *t = dt__tensor_new(site, d, k, rank, shape);
  if (t == NULL) return NULL;
  if (t->numel == 0) return t;
  if (data == NULL) {
    dt__fail(site, DT_ERR_INVALID_ARGUMENT, "The data pointer is NULL for %lld elements",
             (long long)t->numel);
    dt__tensor_free(t);
    return NULL;
  }
  dt_storage *s = t->storage;
  if (s->iface->copy_in(s->ordinal, s->data, data, (size_t)t->numel * dt__kind_size(k)) != 0) {
    dt__device_failure(site, s, "copy in", d);
    dt__tensor_free(t);
    return NULL;
  }
  return t;
}

dt_tensor *dt_from_floats_at(DT_SITE_PARAMS, dt_device d, const float *data, int rank,
                             const int64_t *shape) {
  dt_site site = {dt_file_, dt_line_, "dt_from_floats"};
  return created(from_host(&site, d, DT_FLOAT, data, rank, shape));
}
dt_tensor *dt_from_floats(dt_device d, const float *data, int rank, const int64_t *shape) {
  return dt_from_floats_at(NULL, 0, d, data, rank, shape);
}

dt_tensor *dt_from_ints_at(DT_SITE_PARAMS, dt_device d, const int64_t *data, int rank,
                           const int64_t *shape) {
  dt_site site = {dt_file_, dt_line_, "dt_from_ints"};
  return created(from_host(&site, d, DT_INT, data, rank, shape));
}
dt_tensor *dt_from_ints(dt_device d, const int64_t *data, int rank, const int64_t *shape) {
  return dt_from_ints_at(NULL, 0, d, data, rank, shape);
}

dt_tensor *dt_randn_at(DT_SITE_PARAMS, dt_device d, uint64_t seed, int rank, const int64_t *shape) {
  dt_site site = {dt_file_, dt_line_, "dt_randn"};
  /* Validate device and shape before sizing the host buffer. */
  if (dt__backend_for(&site, d) == NULL) return NULL;
  int64_t numel;
  if (dt__validate_shape(&site, rank, shape, &numel) != DT_OK) return NULL;
  float *host = dt__host_alloc(&site, (size_t)numel * sizeof(float));
  if (host == NULL) return NULL;
  dt__randn_host(seed, host, numel);
  dt_tensor *t = from_host(&site, d, DT_FLOAT, host, rank, shape);
  free(host);
  return created(t);
}
dt_tensor *dt_randn(dt_device d, uint64_t seed, int rank, const int64_t *shape) {
  return dt_randn_at(NULL, 0, d, seed, rank, shape);
}
