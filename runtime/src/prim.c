/* runtime/src/prim.c — the primitive operations: the shape logic of every operation, written
 * once (broadcasting, reductions, matrix products, slices), each building a dt_op_desc that the
 * backend of the result's device runs. Primitives make no tag checks and record no graph: the
 * public entry points (ops.c) and autodiff.c call them on storages whose device the precheck
 * has already settled. The result takes the device tag of the tensor it is computed like. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernels/opinfo.h"


/* "[2, 3]" */
static const char *shape_string(int rank, const int64_t *shape, char *buf, size_t n) {
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < rank && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (used < n) snprintf(buf + used, n - used, "]");
  return buf;
}

dt_status dt__device_failure(const dt_site *site, const dt_storage *s, const char *what,
                             dt_device d) {
  const char *why = s->iface->last_error != NULL ? s->iface->last_error() : NULL;
  char dev[64];
  dt_device_name(dt_inner_device(d), dev, sizeof dev);
  return dt__fail(site, DT_ERR_DEVICE, "The %s backend failed to %s on %s: %s", s->iface->name, what,
                  dev, (why != NULL && why[0] != '\0') ? why : "no reason given");
}

/* Runs desc on out's backend; frees out and returns NULL on failure. */
static dt_tensor *run_into(const dt_site *site, dt_tensor *out, dt_op_desc *desc) {
  if (out->numel == 0) return out; /* nothing to compute */
  desc->out = out->storage->data;
  if (out->storage->iface->run(out->storage->ordinal, desc) != 0) {
    char what[64];
    snprintf(what, sizeof what, "run %s", dt_k_op_name(desc->op));
    dt__device_failure(site, out->storage, what, out->device);
    dt__tensor_free(out);
    return NULL;
  }
  return out;
}

static int same_shape(const dt_tensor *a, const dt_tensor *b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return 0;
  return 1;
}

/* Contiguous row-major strides of t. */
static void strides_of(const dt_tensor *t, int64_t *st) {
  int64_t s = 1;
  for (int i = t->rank - 1; i >= 0; i--) {
    st[i] = s;
    s *= t->shape[i];
  }
}

static int normalize_axis(const dt_site *site, int axis, int rank) {
  if (axis < -rank || axis >= rank) {
    dt__fail(site, DT_ERR_INVALID_ARGUMENT, "Axis %d is out of range for a rank-%d tensor", axis,
             rank);
    return -1;
  }
  return axis < 0 ? axis + rank : axis;
}

/* NumPy broadcasting of n operands into desc->u.bcast (shape, strides, contiguous) and n. */
static dt_status broadcast(const dt_site *site, int n, const dt_tensor *const *ts,
                           dt_op_desc *desc) {
  int rank = 0;
  for (int i = 0; i < n; i++)
    if (ts[i]->rank > rank) rank = ts[i]->rank;
  int64_t *shape = desc->u.bcast.shape;
  for (int a = 0; a < rank; a++) {
    int64_t dim = 1;
    for (int i = 0; i < n; i++) {
      const int ai = a - (rank - ts[i]->rank);
      if (ai < 0 || ts[i]->shape[ai] == 1) continue;
      if (dim == 1) {
        dim = ts[i]->shape[ai];
      } else if (dim != ts[i]->shape[ai]) {
        char s0[128], s1[128];
        int other = 0;
        while (other < i && (a - (rank - ts[other]->rank) < 0 ||
                             ts[other]->shape[a - (rank - ts[other]->rank)] != dim))
          other++;
        return dt__fail(site, DT_ERR_SHAPE,
                        "Shapes %s and %s cannot be broadcast together (%lld vs %lld)",
                        shape_string(ts[other]->rank, ts[other]->shape, s0, sizeof s0),
                        shape_string(ts[i]->rank, ts[i]->shape, s1, sizeof s1), (long long)dim,
                        (long long)ts[i]->shape[ai]);
      }
    }
    shape[a] = dim;
  }
  int64_t numel;
  if (dt__validate_shape(site, rank, shape, &numel) != DT_OK) return DT_ERR_INVALID_ARGUMENT;
  desc->u.bcast.rank = rank;
  desc->u.bcast.contiguous = 1;
  for (int i = 0; i < n; i++) {
    int64_t st[DT_MAX_RANK];
    strides_of(ts[i], st);
    for (int a = 0; a < rank; a++) {
      const int ai = a - (rank - ts[i]->rank);
      desc->u.bcast.strides[i][a] = (ai < 0 || ts[i]->shape[ai] == 1) ? 0 : st[ai];
    }
    if (ts[i]->numel != numel) desc->u.bcast.contiguous = 0;
  }
  desc->n = numel;
  return DT_OK;
}

dt_tensor *dt__prim_fill(const dt_site *site, dt_device d, dt_kind k, float value, int rank,
                         const int64_t *shape) {
  dt_tensor *out = dt__tensor_new(site, d, k, rank, shape);
  if (out == NULL) return NULL;
  dt_op_desc desc = {.op = DT_OP_FILL, .kind = k, .out_kind = k, .n = out->numel};
  desc.u.scalar.value = value;
  return run_into(site, out, &desc);
}

/* Broadcast op over n operands (binary and where); the result is like ts[like]. */
static dt_tensor *broadcast_op(const dt_site *site, dt_op op, int n, const dt_tensor *const *ts,
                               int like, dt_kind kind, dt_kind out_kind) {
  dt_op_desc desc = {.op = op, .kind = kind, .out_kind = out_kind};
  if (broadcast(site, n, ts, &desc) != DT_OK) return NULL;
  dt_tensor *out =
      dt__tensor_new(site, ts[like]->device, out_kind, desc.u.bcast.rank, desc.u.bcast.shape);
  if (out == NULL) return NULL;
  for (int i = 0; i < n; i++) desc.in[i] = ts[i]->storage->data;
  return run_into(site, out, &desc);
}

dt_tensor *dt__prim_binary(const dt_site *site, dt_op op, const dt_tensor *a, const dt_tensor *b) {
  const dt_tensor *ts[2] = {a, b};
  return broadcast_op(site, op, 2, ts, 0, a->kind, op == DT_OP_GREATER ? DT_BOOL : a->kind);
}

dt_tensor *dt__prim_where(const dt_site *site, const dt_tensor *c, const dt_tensor *a,
                          const dt_tensor *b) {
  const dt_tensor *ts[3] = {c, a, b};
  return broadcast_op(site, DT_OP_WHERE, 3, ts, 1, a->kind, a->kind);
}

/* out = op(a) element-wise, same shape and kind. */
static dt_tensor *map_op(const dt_site *site, dt_op op, const dt_tensor *a, float s) {
  dt_tensor *out = dt__tensor_new(site, a->device, a->kind, a->rank, a->shape);
  if (out == NULL) return NULL;
  dt_op_desc desc = {.op = op, .kind = a->kind, .out_kind = a->kind, .n = out->numel};
  desc.in[0] = a->storage->data;
  desc.u.scalar.value = s;
  return run_into(site, out, &desc);
}

dt_tensor *dt__prim_act_grad(const dt_site *site, dt_op op, const dt_tensor *v, const dt_tensor *g) {
  if (!same_shape(v, g) || v->kind != DT_FLOAT || g->kind != DT_FLOAT) {
    char s0[128], s1[128];
    dt__fail(site, DT_ERR_SHAPE, "The %s of shape %s cannot take a gradient of shape %s",
             dt_k_op_name(op), shape_string(v->rank, v->shape, s0, sizeof s0),
             shape_string(g->rank, g->shape, s1, sizeof s1));
    return NULL;
  }
  dt_tensor *out = dt__tensor_new(site, g->device, DT_FLOAT, g->rank, g->shape);
  if (out == NULL) return NULL;
  dt_op_desc desc = {.op = op, .kind = DT_FLOAT, .out_kind = DT_FLOAT, .n = out->numel};
  desc.in[0] = v->storage->data;
  desc.in[1] = g->storage->data;
  desc.u.bcast.rank = g->rank;
  memcpy(desc.u.bcast.shape, g->shape, (size_t)g->rank * sizeof *g->shape);
  desc.u.bcast.contiguous = 1;
  return run_into(site, out, &desc);
}

dt_tensor *dt__prim_scalar(const dt_site *site, dt_op op, const dt_tensor *a, float s) {
  return map_op(site, op, a, s);
}

dt_tensor *dt__prim_unary(const dt_site *site, dt_op op, const dt_tensor *a) {
  return map_op(site, op, a, 0.0f);
}

/* a viewed as [outer, len, inner] summed over len into a tensor of the given shape. */
static dt_tensor *reduce_op(const dt_site *site, const dt_tensor *a, int64_t outer, int64_t len,
                            int64_t inner, float scale, int rank, const int64_t *shape) {
  dt_tensor *out = dt__tensor_new(site, a->device, a->kind, rank, shape);
  if (out == NULL) return NULL;
  dt_op_desc desc = {.op = DT_OP_SUM_DIM, .kind = a->kind, .out_kind = a->kind, .n = out->numel};
  desc.in[0] = a->storage->data;
  desc.u.reduce.outer = outer;
  desc.u.reduce.len = len;
  desc.u.reduce.inner = inner;
  desc.u.reduce.scale = scale;
  return run_into(site, out, &desc);
}

dt_tensor *dt__prim_sum(const dt_site *site, const dt_tensor *a, float scale) {
  return reduce_op(site, a, 1, a->numel, 1, scale, 0, NULL);
}

dt_tensor *dt__prim_sum_dim(const dt_site *site, const dt_tensor *a, int axis, int keepdim) {
  const int ax = normalize_axis(site, axis, a->rank);
  if (ax < 0) return NULL;
  int64_t outer = 1, inner = 1, shape[DT_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < a->rank; i++) {
    if (i < ax) outer *= a->shape[i];
    if (i > ax) inner *= a->shape[i];
    if (i != ax)
      shape[rank++] = a->shape[i];
    else if (keepdim)
      shape[rank++] = 1;
  }
  return reduce_op(site, a, outer, a->shape[ax], inner, 1.0f, rank, shape);
}

dt_tensor *dt__prim_sum_to_shape(const dt_site *site, const dt_tensor *a, int rank,
                                 const int64_t *shape) {
  char s0[128], s1[128];
  int ok = rank >= 0 && rank <= a->rank;
  const int lead = a->rank - rank;
  for (int j = 0; ok && j < rank; j++) ok = shape[j] == 1 || shape[j] == a->shape[lead + j];
  if (!ok) {
    dt__fail(site, DT_ERR_SHAPE, "Cannot sum a tensor of shape %s down to shape %s",
             shape_string(a->rank, a->shape, s0, sizeof s0), shape_string(rank, shape, s1, sizeof s1));
    return NULL;
  }
  dt_tensor *cur = NULL;
  if (lead > 0) { /* the leading axes, merged into one and summed away */
    int64_t vshape[DT_MAX_RANK + 1];
    vshape[0] = 1;
    for (int i = 0; i < lead; i++) vshape[0] *= a->shape[i];
    for (int j = 0; j < rank; j++) vshape[1 + j] = a->shape[lead + j];
    dt_tensor *v = dt__tensor_view(site, a, a->device, rank + 1, vshape);
    if (v == NULL) return NULL;
    cur = dt__prim_sum_dim(site, v, 0, 0);
    dt__tensor_free(v);
    if (cur == NULL) return NULL;
  }
  for (int j = 0; j < rank; j++) {
    const int64_t have = cur != NULL ? cur->shape[j] : a->shape[j];
    if (shape[j] != 1 || have == 1) continue;
    dt_tensor *next = dt__prim_sum_dim(site, cur != NULL ? cur : a, j, 1);
    dt__tensor_free(cur);
    if (next == NULL) return NULL;
    cur = next;
  }
  if (cur == NULL) cur = dt__tensor_view(site, a, a->device, rank, shape);
  return cur;
}

static atomic_int g_matmul_precision = DT_MATMUL_EXACT;

void dt_set_matmul_precision(dt_matmul_precision p) {
  atomic_store_explicit(&g_matmul_precision, p == DT_MATMUL_FAST ? DT_MATMUL_FAST : DT_MATMUL_EXACT,
                        memory_order_relaxed);
}

dt_matmul_precision dt_get_matmul_precision(void) {
  return (dt_matmul_precision)atomic_load_explicit(&g_matmul_precision, memory_order_relaxed);
}

dt_tensor *dt__prim_matmul(const dt_site *site, const dt_tensor *a, const dt_tensor *b) {
  return dt__prim_matmul_t(site, a, 0, b, 0);
}

dt_tensor *dt__prim_matmul_t(const dt_site *site, const dt_tensor *a, int trans_a,
                             const dt_tensor *b, int trans_b) {
  char s0[128], s1[128];
  const int ok = a->rank == 2 && b->rank == 2;
  const int64_t m = ok ? a->shape[trans_a ? 1 : 0] : 0, k = ok ? a->shape[trans_a ? 0 : 1] : 0;
  const int64_t kb = ok ? b->shape[trans_b ? 1 : 0] : 0, n = ok ? b->shape[trans_b ? 0 : 1] : 0;
  if (!ok || k != kb) {
    dt__fail(site, DT_ERR_SHAPE, "%s: shapes %s and %s (needs [m, k] x [k, n])",
             (a->rank != 2 || b->rank != 2) ? "Matrix product of tensors that are not 2-D"
                                            : "Matrix product with inner dimensions that differ",
             shape_string(a->rank, a->shape, s0, sizeof s0),
             shape_string(b->rank, b->shape, s1, sizeof s1));
    return NULL;
  }
  const int64_t shape[2] = {m, n};
  dt_tensor *out = dt__tensor_new(site, a->device, a->kind, 2, shape);
  if (out == NULL) return NULL;
  dt_op_desc desc = {.op = DT_OP_MATMUL, .kind = a->kind, .out_kind = a->kind, .n = out->numel};
  desc.in[0] = a->storage->data;
  desc.in[1] = b->storage->data;
  desc.u.matmul.m = m;
  desc.u.matmul.k = k;
  desc.u.matmul.n = n;
  desc.u.matmul.trans_a = trans_a != 0;
  desc.u.matmul.trans_b = trans_b != 0;
  desc.u.matmul.precision = (int)dt_get_matmul_precision();
  return run_into(site, out, &desc);
}

dt_tensor *dt__prim_transpose(const dt_site *site, const dt_tensor *a) {
  if (a->rank != 2) {
    char s0[128];
    dt__fail(site, DT_ERR_SHAPE, "Transpose needs a 2-D tensor (got shape %s)",
             shape_string(a->rank, a->shape, s0, sizeof s0));
    return NULL;
  }
  const int64_t shape[2] = {a->shape[1], a->shape[0]};
  dt_tensor *out = dt__tensor_new(site, a->device, a->kind, 2, shape);
  if (out == NULL) return NULL;
  dt_op_desc desc = {.op = DT_OP_TRANSPOSE, .kind = a->kind, .out_kind = a->kind, .n = out->numel};
  desc.in[0] = a->storage->data;
  desc.u.transpose.rows = a->shape[0];
  desc.u.transpose.cols = a->shape[1];
  return run_into(site, out, &desc);
}

/* Copies src[.., src_start : src_start+len, ..] into dst[.., dst_start : dst_start+len, ..]
   along axis (dst was allocated by the caller). */
static dt_status copy_slice(const dt_site *site, dt_tensor *dst, const dt_tensor *src, int axis,
                            int64_t src_start, int64_t dst_start, int64_t len) {
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; i++) outer *= src->shape[i];
  for (int i = axis + 1; i < src->rank; i++) inner *= src->shape[i];
  if (outer * len * inner == 0) return DT_OK;
  dt_op_desc desc = {.op = DT_OP_COPY_SLICE, .kind = src->kind, .out_kind = src->kind};
  desc.n = outer * len * inner;
  desc.in[0] = src->storage->data;
  desc.out = dst->storage->data;
  desc.u.slice.outer = outer;
  desc.u.slice.inner = inner;
  desc.u.slice.len = len;
  desc.u.slice.src_len = src->shape[axis];
  desc.u.slice.src_start = src_start;
  desc.u.slice.dst_len = dst->shape[axis];
  desc.u.slice.dst_start = dst_start;
  if (dst->storage->iface->run(dst->storage->ordinal, &desc) != 0)
    return dt__device_failure(site, dst->storage, "run copy_slice", dst->device);
  return DT_OK;
}

dt_tensor *dt__prim_cat(const dt_site *site, int n, const dt_tensor *const *ts, int axis) {
  char s0[128], s1[128];
  if (n < 1) {
    dt__fail(site, DT_ERR_INVALID_ARGUMENT, "Concatenation of %d tensors (needs at least one)", n);
    return NULL;
  }
  const int rank = ts[0]->rank;
  for (int i = 0; i < n; i++)
    if (ts[i]->rank != rank || rank == 0) {
      dt__fail(site, DT_ERR_SHAPE,
               "Concatenation needs tensors of one rank, at least 1 (tensor 1 has shape %s, "
               "tensor %d has shape %s)",
               shape_string(rank, ts[0]->shape, s0, sizeof s0), i + 1,
               shape_string(ts[i]->rank, ts[i]->shape, s1, sizeof s1));
      return NULL;
    }
  const int ax = normalize_axis(site, axis, rank);
  if (ax < 0) return NULL;
  int64_t shape[DT_MAX_RANK];
  memcpy(shape, ts[0]->shape, sizeof(int64_t) * (size_t)rank);
  shape[ax] = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < rank; j++)
      if (j != ax && ts[i]->shape[j] != ts[0]->shape[j]) {
        dt__fail(site, DT_ERR_SHAPE,
                 "Concatenation along axis %d of shapes %s and %s (other axes must agree)", ax,
                 shape_string(rank, ts[0]->shape, s0, sizeof s0), shape_string(rank, ts[i]->shape, s1, sizeof s1));
        return NULL;
      }
    if (ts[i]->shape[ax] > INT64_MAX - shape[ax]) {
      dt__fail(site, DT_ERR_INVALID_ARGUMENT, "The concatenated dimension overflows");
      return NULL;
    }
    shape[ax] += ts[i]->shape[ax];
  }
  dt_tensor *out = dt__tensor_new(site, ts[0]->device, ts[0]->kind, rank, shape);
  if (out == NULL) return NULL;
  int64_t offset = 0;
  for (int i = 0; i < n; i++) {
    if (copy_slice(site, out, ts[i], ax, 0, offset, ts[i]->shape[ax]) != DT_OK) {
      dt__tensor_free(out);
      return NULL;
    }
    offset += ts[i]->shape[ax];
  }
  return out;
}

dt_tensor *dt__prim_narrow(const dt_site *site, const dt_tensor *a, int axis, int64_t start,
                           int64_t len) {
  const int ax = normalize_axis(site, axis, a->rank);
  if (ax < 0) return NULL;
  if (start < 0 || len < 0 || start > a->shape[ax] || len > a->shape[ax] - start) {
    dt__fail(site, DT_ERR_INVALID_ARGUMENT,
             "Slice [%lld, %lld) is out of range for axis %d of length %lld", (long long)start,
             (long long)(start + len), ax, (long long)a->shape[ax]);
    return NULL;
  }
  int64_t shape[DT_MAX_RANK];
  memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->rank);
  shape[ax] = len;
  dt_tensor *out = dt__tensor_new(site, a->device, a->kind, a->rank, shape);
  if (out == NULL) return NULL;
  if (copy_slice(site, out, a, ax, start, 0, len) != DT_OK) {
    dt__tensor_free(out);
    return NULL;
  }
  return out;
}

dt_tensor *dt__prim_mse(const dt_site *site, const dt_tensor *a, const dt_tensor *b) {
  if (!same_shape(a, b)) { /* broadcast: the mean of the squared broadcast difference */
    dt_tensor *d = dt__prim_binary(site, DT_OP_SUB, a, b);
    if (d == NULL) return NULL;
    dt_tensor *sq = dt__prim_binary(site, DT_OP_MUL, d, d);
    dt__tensor_free(d);
    if (sq == NULL) return NULL;
    dt_tensor *out = dt__prim_sum(site, sq, 1.0f / (float)sq->numel);
    dt__tensor_free(sq);
    return out;
  }
  dt_tensor *out = dt__tensor_new(site, a->device, DT_FLOAT, 0, NULL);
  if (out == NULL) return NULL;
  dt_op_desc desc = {.op = DT_OP_MSE, .kind = DT_FLOAT, .out_kind = DT_FLOAT, .n = a->numel};
  desc.in[0] = a->storage->data;
  desc.in[1] = b->storage->data;
  desc.u.reduce.outer = 1;
  desc.u.reduce.len = a->numel;
  desc.u.reduce.inner = 1;
  desc.u.reduce.scale = 1.0f / (float)a->numel;
  return run_into(site, out, &desc);
}

dt_tensor *dt__prim_copy_to(const dt_site *site, const dt_tensor *t, dt_device d) {
  dt_tensor *out = dt__tensor_new(site, d, t->kind, t->rank, t->shape);
  if (out == NULL) return NULL;
  const size_t bytes = (size_t)t->numel * dt__kind_size(t->kind);
  if (bytes == 0) return out;
  const dt_storage *src = t->storage, *dst = out->storage;
  int rc, in_side; /* in_side: the failure is the destination's (a copy in) */
  const char *what;
  if (src->backend == dst->backend && src->ordinal == dst->ordinal &&
      src->iface->copy_device != NULL) {
    what = "copy within the device";
    in_side = 1;
    rc = src->iface->copy_device(src->ordinal, dst->data, src->data, bytes);
  } else if (src->backend == DT_BACKEND_CPU) { /* host memory: straight in */
    what = "copy in";
    in_side = 1;
    rc = dst->iface->copy_in(dst->ordinal, dst->data, src->data, bytes);
  } else if (dst->backend == DT_BACKEND_CPU) { /* host memory: straight out */
    what = "copy out";
    in_side = 0;
    rc = src->iface->copy_out(src->ordinal, dst->data, src->data, bytes);
  } else { /* device to device through a host buffer */
    void *host = dt__host_alloc(site, bytes);
    if (host == NULL) {
      dt__tensor_free(out);
      return NULL;
    }
    what = "copy out";
    in_side = 0;
    rc = src->iface->copy_out(src->ordinal, host, src->data, bytes);
    if (rc == 0) {
      what = "copy in";
      in_side = 1;
      rc = dst->iface->copy_in(dst->ordinal, dst->data, host, bytes);
    }
    free(host);
  }
  if (rc != 0) {
    dt__device_failure(site, in_side ? dst : src, what, in_side ? out->device : t->device);
    dt__tensor_free(out);
    return NULL;
  }
  return out;
}
