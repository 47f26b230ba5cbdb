/* runtime/src/ops.c — the public operations of SPEC §3 and their call-site twins: each sets its
 * site, runs THE precheck (check.c), calls a primitive (prim.c), lets autodiff attach a graph
 * node when the result lives on an autodiff device, and resets the status on success. Operands
 * arrive as handles; the precheck resolves them into objects, and the result leaves as a handle. */
#include <stdlib.h>

#include "internal.h"

#define SITE(name) dt_site site = {dt_file_, dt_line_, name}

/* The common tail: graph recording for autodiff results, then DT_OK. */
static dt_tensor *finish(const dt_site *site, dt_ad_op op, dt_tensor *out, int n,
                         const dt_tensor *const *inputs, const dt_ad_extra *extra) {
  if (out == NULL) return NULL;
  if (out->device.autodiff) {
    out = dt__ad_record(site, op, out, n, inputs, extra);
    if (out == NULL) return NULL;
  }
  dt__ok();
  return dt__handle_of(out);
}

/* ---- broadcast binary operations ---- */

static dt_tensor *binary(const dt_site *site, dt_op op, const dt_tensor *a, const dt_tensor *b) {
  const dt_tensor *hs[2] = {a, b}, *ts[2];
  if (dt__precheck(site, 2, hs, ts, DT_KINDS_NUMERIC) != DT_OK) return NULL;
  return finish(site, dt__ad_op_of(op), dt__prim_binary(site, op, ts[0], ts[1]), 2, ts, NULL);
}

dt_tensor *dt_add_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b) {
  SITE("dt_add");
  return binary(&site, DT_OP_ADD, a, b);
}
dt_tensor *dt_add(const dt_tensor *a, const dt_tensor *b) { return dt_add_at(NULL, 0, a, b); }

dt_tensor *dt_sub_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b) {
  SITE("dt_sub");
  return binary(&site, DT_OP_SUB, a, b);
}
dt_tensor *dt_sub(const dt_tensor *a, const dt_tensor *b) { return dt_sub_at(NULL, 0, a, b); }

dt_tensor *dt_mul_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b) {
  SITE("dt_mul");
  return binary(&site, DT_OP_MUL, a, b);
}
dt_tensor *dt_mul(const dt_tensor *a, const dt_tensor *b) { return dt_mul_at(NULL, 0, a, b); }

dt_tensor *dt_div_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b) {
  SITE("dt_div");
  return binary(&site, DT_OP_DIV, a, b);
}
dt_tensor *dt_div(const dt_tensor *a, const dt_tensor *b) { return dt_div_at(NULL, 0, a, b); }

dt_tensor *dt_greater_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b) {
  SITE("dt_greater");
  return binary(&site, DT_OP_GREATER, a, b);
}
dt_tensor *dt_greater(const dt_tensor *a, const dt_tensor *b) {
  return dt_greater_at(NULL, 0, a, b);
}

dt_tensor *dt_where_at(DT_SITE_PARAMS, const dt_tensor *cond, const dt_tensor *a,
                       const dt_tensor *b) {
  SITE("dt_where");
  const dt_tensor *hs[3] = {cond, a, b}, *ts[3];
  if (dt__precheck(&site, 3, hs, ts, DT_KINDS_WHERE) != DT_OK) return NULL;
  return finish(&site, DT_AD_WHERE, dt__prim_where(&site, ts[0], ts[1], ts[2]), 3, ts, NULL);
}
dt_tensor *dt_where(const dt_tensor *cond, const dt_tensor *a, const dt_tensor *b) {
  return dt_where_at(NULL, 0, cond, a, b);
}

dt_tensor *dt_matmul_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b) {
  SITE("dt_matmul");
  const dt_tensor *hs[2] = {a, b}, *ts[2];
  if (dt__precheck(&site, 2, hs, ts, DT_KINDS_NUMERIC) != DT_OK) return NULL;
  return finish(&site, DT_AD_MATMUL, dt__prim_matmul(&site, ts[0], ts[1]), 2, ts, NULL);
}
dt_tensor *dt_matmul(const dt_tensor *a, const dt_tensor *b) { return dt_matmul_at(NULL, 0, a, b); }

dt_tensor *dt_mse_loss_at(DT_SITE_PARAMS, const dt_tensor *pred, const dt_tensor *target) {
  SITE("dt_mse_loss");
  const dt_tensor *hs[2] = {pred, target}, *ts[2];
  if (dt__precheck(&site, 2, hs, ts, DT_KINDS_FLOAT) != DT_OK) return NULL;
  return finish(&site, DT_AD_MSE, dt__prim_mse(&site, ts[0], ts[1]), 2, ts, NULL);
}
dt_tensor *dt_mse_loss(const dt_tensor *pred, const dt_tensor *target) {
  return dt_mse_loss_at(NULL, 0, pred, target);
}

/* ---- scalar and unary operations ---- */

static dt_tensor *scalar(const dt_site *site, dt_op op, const dt_tensor *h, float s) {
  const dt_tensor *a;
  if (dt__precheck(site, 1, &h, &a, DT_KINDS_NUMERIC) != DT_OK) return NULL;
  const dt_ad_extra extra = {.scalar = s};
  return finish(site, dt__ad_op_of(op), dt__prim_scalar(site, op, a, s), 1, &a, &extra);
}

dt_tensor *dt_add_scalar_at(DT_SITE_PARAMS, const dt_tensor *a, float s) {
  SITE("dt_add_scalar");
  return scalar(&site, DT_OP_ADD_SCALAR, a, s);
}
dt_tensor *dt_add_scalar(const dt_tensor *a, float s) { return dt_add_scalar_at(NULL, 0, a, s); }

dt_tensor *dt_mul_scalar_at(DT_SITE_PARAMS, const dt_tensor *a, float s) {
  SITE("dt_mul_scalar");
  return scalar(&site, DT_OP_MUL_SCALAR, a, s);
}
dt_tensor *dt_mul_scalar(const dt_tensor *a, float s) { return dt_mul_scalar_at(NULL, 0, a, s); }

static dt_tensor *unary(const dt_site *site, dt_op op, const dt_tensor *h, dt_kind_rule kinds) {
  const dt_tensor *a;
  if (dt__precheck(site, 1, &h, &a, kinds) != DT_OK) return NULL;
  return finish(site, dt__ad_op_of(op), dt__prim_unary(site, op, a), 1, &a, NULL);
}

dt_tensor *dt_neg_at(DT_SITE_PARAMS, const dt_tensor *a) {
  SITE("dt_neg");
  return unary(&site, DT_OP_NEG, a, DT_KINDS_NUMERIC);
}
dt_tensor *dt_neg(const dt_tensor *a) { return dt_neg_at(NULL, 0, a); }

dt_tensor *dt_exp_at(DT_SITE_PARAMS, const dt_tensor *a) {
  SITE("dt_exp");
  return unary(&site, DT_OP_EXP, a, DT_KINDS_FLOAT);
}
dt_tensor *dt_exp(const dt_tensor *a) { return dt_exp_at(NULL, 0, a); }

dt_tensor *dt_log_at(DT_SITE_PARAMS, const dt_tensor *a) {
  SITE("dt_log");
  return unary(&site, DT_OP_LOG, a, DT_KINDS_FLOAT);
}
dt_tensor *dt_log(const dt_tensor *a) { return dt_log_at(NULL, 0, a); }

dt_tensor *dt_relu_at(DT_SITE_PARAMS, const dt_tensor *a) {
  SITE("dt_relu");
  return unary(&site, DT_OP_RELU, a, DT_KINDS_NUMERIC);
}
dt_tensor *dt_relu(const dt_tensor *a) { return dt_relu_at(NULL, 0, a); }

dt_tensor *dt_sigmoid_at(DT_SITE_PARAMS, const dt_tensor *a) {
  SITE("dt_sigmoid");
  return unary(&site, DT_OP_SIGMOID, a, DT_KINDS_FLOAT);
}
dt_tensor *dt_sigmoid(const dt_tensor *a) { return dt_sigmoid_at(NULL, 0, a); }

dt_tensor *dt_tanh_at(DT_SITE_PARAMS, const dt_tensor *a) {
  SITE("dt_tanh");
  return unary(&site, DT_OP_TANH, a, DT_KINDS_FLOAT);
}
dt_tensor *dt_tanh(const dt_tensor *a) { return dt_tanh_at(NULL, 0, a); }

/* ---- reductions ---- */

dt_tensor *dt_sum_at(DT_SITE_PARAMS, const dt_tensor *h) {
  SITE("dt_sum");
  const dt_tensor *a;
  if (dt__precheck(&site, 1, &h, &a, DT_KINDS_NUMERIC) != DT_OK) return NULL;
  return finish(&site, DT_AD_SUM, dt__prim_sum(&site, a, 1.0f), 1, &a, NULL);
}
dt_tensor *dt_sum(const dt_tensor *a) { return dt_sum_at(NULL, 0, a); }

dt_tensor *dt_mean_at(DT_SITE_PARAMS, const dt_tensor *h) {
  SITE("dt_mean");
  const dt_tensor *a;
  if (dt__precheck(&site, 1, &h, &a, DT_KINDS_FLOAT) != DT_OK) return NULL;
  return finish(&site, DT_AD_MEAN, dt__prim_sum(&site, a, 1.0f / (float)a->numel), 1, &a, NULL);
}
dt_tensor *dt_mean(const dt_tensor *a) { return dt_mean_at(NULL, 0, a); }

dt_tensor *dt_sum_dim_at(DT_SITE_PARAMS, const dt_tensor *h, int axis) {
  SITE("dt_sum_dim");
  const dt_tensor *a;
  if (dt__precheck(&site, 1, &h, &a, DT_KINDS_NUMERIC) != DT_OK) return NULL;
  dt_tensor *out = dt__prim_sum_dim(&site, a, axis, 0);
  const dt_ad_extra extra = {.axis = axis < 0 ? axis + a->rank : axis};
  return finish(&site, DT_AD_SUM_DIM, out, 1, &a, &extra);
}
dt_tensor *dt_sum_dim(const dt_tensor *a, int axis) { return dt_sum_dim_at(NULL, 0, a, axis); }

/* ---- layout ---- */

dt_tensor *dt_reshape_at(DT_SITE_PARAMS, const dt_tensor *h, int rank, const int64_t *shape) {
  SITE("dt_reshape");
  const dt_tensor *a;
  if (dt__precheck(&site, 1, &h, &a, DT_KINDS_ANY) != DT_OK) return NULL;
  int64_t numel;
  if (dt__validate_shape(&site, rank, shape, &numel) != DT_OK) return NULL;
  if (numel != a->numel) {
    dt__fail(&site, DT_ERR_SHAPE, "Cannot reshape a tensor of %lld elements into one of %lld",
             (long long)a->numel, (long long)numel);
    return NULL;
  }
  return finish(&site, DT_AD_RESHAPE, dt__tensor_view(&site, a, a->device, rank, shape), 1, &a,
                NULL);
}
dt_tensor *dt_reshape(const dt_tensor *a, int rank, const int64_t *shape) {
  return dt_reshape_at(NULL, 0, a, rank, shape);
}

dt_tensor *dt_transpose_at(DT_SITE_PARAMS, const dt_tensor *h) {
  SITE("dt_transpose");
  const dt_tensor *a;
  if (dt__precheck(&site, 1, &h, &a, DT_KINDS_ANY) != DT_OK) return NULL;
  return finish(&site, DT_AD_TRANSPOSE, dt__prim_transpose(&site, a), 1, &a, NULL);
}
dt_tensor *dt_transpose(const dt_tensor *a) { return dt_transpose_at(NULL, 0, a); }

dt_tensor *dt_cat_at(DT_SITE_PARAMS, int n, dt_tensor *const *ts, int axis) {
  SITE("dt_cat");
  if (n < 1) {
    dt__fail(&site, DT_ERR_INVALID_ARGUMENT, "Concatenation of %d tensors (needs at least one)", n);
    return NULL;
  }
  const dt_tensor *small[8];
  const dt_tensor **in = small;
  if ((size_t)n > sizeof small / sizeof small[0] &&
      (in = dt__host_alloc(&site, (size_t)n * sizeof *in)) == NULL)
    return NULL;
  dt_tensor *r = NULL;
  if (dt__precheck(&site, n, (const dt_tensor *const *)ts, in, DT_KINDS_ANY) == DT_OK) {
    dt_tensor *out = dt__prim_cat(&site, n, in, axis);
    const dt_ad_extra extra = {.axis = axis < 0 ? axis + in[0]->rank : axis, .n_inputs = n};
    r = finish(&site, DT_AD_CAT, out, n, in, &extra);
  }
  if (in != small) free(in);
  return r;
}
dt_tensor *dt_cat(int n, dt_tensor *const *ts, int axis) { return dt_cat_at(NULL, 0, n, ts, axis); }

/* ---- transfer ---- */

dt_tensor *dt_to_device_at(DT_SITE_PARAMS, const dt_tensor *h, dt_device d) {
  SITE("dt_to_device");
  const dt_tensor *t;
  if (dt__precheck_transfer(&site, h, d, &t) != DT_OK) return NULL;
  return finish(&site, DT_AD_TO_DEVICE, dt__prim_copy_to(&site, t, d), 1, &t, NULL);
}
dt_tensor *dt_to_device(const dt_tensor *t, dt_device d) { return dt_to_device_at(NULL, 0, t, d); }
