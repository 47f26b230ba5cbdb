/* runtime/src/query.c — queries on tensors (device, kind, rank, dims, element count) and the
 * only host access to element data: dt_read_floats / dt_read_ints, device-to-host copies into a
 * caller's buffer of stated capacity. */
#include <stdlib.h>

#include "internal.h"

dt_device dt_device_of_at(DT_SITE_PARAMS, const dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_device_of"};
  const dt_tensor *t = dt__resolve(&site, h, "The tensor");
  if (t == NULL) return dt_cpu();
  dt__ok();
  return t->device;
}
dt_device dt_device_of(const dt_tensor *t) { return dt_device_of_at(NULL, 0, t); }

dt_kind dt_kind_of_at(DT_SITE_PARAMS, const dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_kind_of"};
  const dt_tensor *t = dt__resolve(&site, h, "The tensor");
  if (t == NULL) return (dt_kind)0;
  dt__ok();
  return t->kind;
}
dt_kind dt_kind_of(const dt_tensor *t) { return dt_kind_of_at(NULL, 0, t); }

int dt_rank_at(DT_SITE_PARAMS, const dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_rank"};
  const dt_tensor *t = dt__resolve(&site, h, "The tensor");
  if (t == NULL) return -1;
  dt__ok();
  return t->rank;
}
int dt_rank(const dt_tensor *t) { return dt_rank_at(NULL, 0, t); }

/* axis in [-rank, rank): negative axes count from the end. */
int64_t dt_dim_at(DT_SITE_PARAMS, const dt_tensor *h, int axis) {
  dt_site site = {dt_file_, dt_line_, "dt_dim"};
  const dt_tensor *t = dt__resolve(&site, h, "The tensor");
  if (t == NULL) return -1;
  if (axis < -t->rank || axis >= t->rank) {
    dt__fail(&site, DT_ERR_INVALID_ARGUMENT, "Axis %d is out of range for a rank-%d tensor", axis,
             t->rank);
    return -1;
  }
  dt__ok();
  return t->shape[axis < 0 ? axis + t->rank : axis];
}
int64_t dt_dim(const dt_tensor *t, int axis) { return dt_dim_at(NULL, 0, t, axis); }

int64_t dt_numel_at(DT_SITE_PARAMS, const dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_numel"};
  const dt_tensor *t = dt__resolve(&site, h, "The tensor");
  if (t == NULL) return -1;
  dt__ok();
  return t->numel;
}
int64_t dt_numel(const dt_tensor *t) { return dt_numel_at(NULL, 0, t); }

/* Checks the buffer, then copies t's elements out (bytes each) to out. */
static dt_status read_checked(const dt_site *site, const dt_tensor *t, void *out, int64_t n,
                              size_t bytes) {
  if (n < t->numel)
    return dt__fail(site, DT_ERR_INVALID_ARGUMENT,
                    "The buffer holds %lld elements, the tensor has %lld", (long long)n,
                    (long long)t->numel);
  if (t->numel == 0) return DT_OK;
  if (out == NULL) return dt__fail(site, DT_ERR_INVALID_ARGUMENT, "The output buffer is NULL");
  const dt_storage *s = t->storage;
  if (s->iface->copy_out(s->ordinal, out, s->data, bytes) != 0)
    return dt__device_failure(site, s, "copy out", t->device);
  return DT_OK;
}

int dt_read_floats_at(DT_SITE_PARAMS, const dt_tensor *h, float *out, int64_t n) {
  dt_site site = {dt_file_, dt_line_, "dt_read_floats"};
  const dt_tensor *t;
  dt_status st = dt__precheck(&site, 1, &h, &t, DT_KINDS_FLOAT);
  if (st == DT_OK) st = read_checked(&site, t, out, n, (size_t)t->numel * sizeof(float));
  if (st == DT_OK) dt__ok();
  return (int)st;
}
int dt_read_floats(const dt_tensor *t, float *out, int64_t n) {
  return dt_read_floats_at(NULL, 0, t, out, n);
}

int dt_read_ints_at(DT_SITE_PARAMS, const dt_tensor *h, int64_t *out, int64_t n) {
  dt_site site = {dt_file_, dt_line_, "dt_read_ints"};
  const dt_tensor *t;
  dt_status st = dt__precheck(&site, 1, &h, &t, DT_KINDS_INTEGRAL);
  if (st != DT_OK) return (int)st;
  if (t->kind == DT_INT) {
    st = read_checked(&site, t, out, n, (size_t)t->numel * sizeof(int64_t));
  } else { /* bool: bytes out, then widened in place from the end of the buffer */
    st = read_checked(&site, t, out, n, (size_t)t->numel);
    if (st == DT_OK && t->numel > 0) {
      const uint8_t *bytes = (const uint8_t *)out;
      for (int64_t i = t->numel - 1; i >= 0; i--) out[i] = bytes[i] != 0;
    }
  }
  if (st == DT_OK) dt__ok();
  return (int)st;
}
int dt_read_ints(const dt_tensor *t, int64_t *out, int64_t n) {
  return dt_read_ints_at(NULL, 0, t, out, n);
}
