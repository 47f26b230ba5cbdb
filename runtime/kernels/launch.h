/* runtime/kernels/launch.h — the host side of the kernels, shared by sim (C) and cuda (nvcc):
 * turns a resolved dt_op_desc into kernel launches with the launch configuration a GPU gets
 * (block sizes, grid sizes capped at env->max_blocks with grid-stride loops, grid y capped at
 * 65535), collapsing broadcast shapes and choosing between kernel shapes.
 *
 * The including backend defines, before including this file,
 *   DT_K_LAUNCH(env, kernel, args, gx, gy, bx)
 * an int expression (0 on success) that launches `kernel` (a name from ops.cuh) with argument
 * struct `args` over a gx x gy grid of bx-thread blocks on the device described by env.
 * Launches are ordered (one stream), so scratch memory may be reused from one run to the next. */
#ifndef DT_KERNELS_LAUNCH_H
#define DT_KERNELS_LAUNCH_H

#include <string.h>

#include "dt/backend.h"
#include "kenv.h"
#include "ops.cuh"

#define DT_K_GRID_Y_MAX 65535
#define DT_K_ROWS_MIN_INNER 128 /* inner runs at least this long get one grid row each */

static int64_t dt_k_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t dt_k_min(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t dt_k_max(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t dt_k_grid(const dt_k_env *env, int64_t work, int64_t per_block) {
  return dt_k_max(1, dt_k_min(dt_k_cdiv(work, per_block), env->max_blocks));
}

static size_t dt_k_kind_size(dt_kind k) {
  switch (k) {
    case DT_FLOAT:
      return 4;
    case DT_INT:
      return 8;
    case DT_BOOL:
      return 1;
  }
  return 0;
}

/* ---- fill ---- */
static int dt_k_fill_bits(const dt_k_env *env, void *out, int64_t n, size_t esize, uint64_t bits) {
  if (n == 0) return 0;
  dt_k_fill_args a;
  memset(&a, 0, sizeof a);
  a.out = out;
  a.n = n;
  a.bits = bits;
  const int64_t gx = dt_k_grid(env, n, DT_K_EW_THREADS);
  switch (esize) {
    case 1:
      return DT_K_LAUNCH(env, dt_k_fill_u8, a, gx, 1, DT_K_EW_THREADS);
    case 4:
      return DT_K_LAUNCH(env, dt_k_fill_u32, a, gx, 1, DT_K_EW_THREADS);
    case 8:
      return DT_K_LAUNCH(env, dt_k_fill_u64, a, gx, 1, DT_K_EW_THREADS);
    default:
      return -1;
  }
}

/* The bit pattern of `value` converted to kind k. */
static uint64_t dt_k_value_bits(dt_kind k, float value) {
  switch (k) {
    case DT_FLOAT: {
      uint32_t u;
      memcpy(&u, &value, sizeof u);
      return u;
    }
    case DT_INT:
      return (uint64_t)dt_k_d2i((double)value);
    case DT_BOOL:
      return value != 0.0f ? 1u : 0u;
  }
  return 0;
}

/* ---- contiguous maps ---- */
static int dt_k_map(const dt_k_env *env, const dt_op_desc *op) {
  if (op->n == 0) return 0;
  dt_k_map_args a;
  memset(&a, 0, sizeof a);
  a.in0 = op->in[0];
  a.in1 = op->in[1];
  a.out = op->out;
  a.n = op->n;
  a.s = op->u.scalar.value;
  const int64_t per_block = DT_K_EW_THREADS * DT_K_EW_ILP;
  const int64_t gx = env->max_map_blocks > 0
                         ? dt_k_max(1, dt_k_min(dt_k_cdiv(op->n, per_block), env->max_map_blocks))
                         : dt_k_grid(env, op->n, per_block);
  const int f = op->kind == DT_FLOAT;
  if (op->kind != DT_FLOAT && op->kind != DT_INT) return -1;
#define DT_K_MAP_CASE(OP, FK, IK)                                              \
  case OP:                                                                     \
    return f ? DT_K_LAUNCH(env, FK, a, gx, 1, DT_K_EW_THREADS)                 \
             : DT_K_LAUNCH(env, IK, a, gx, 1, DT_K_EW_THREADS);
#define DT_K_MAP_FLOAT_CASE(OP, FK) \
  case OP:                          \
    return f ? DT_K_LAUNCH(env, FK, a, gx, 1, DT_K_EW_THREADS) : -1;
  switch (op->op) {
    DT_K_MAP_CASE(DT_OP_ADD, dt_k_add_f32, dt_k_add_i64)
    DT_K_MAP_CASE(DT_OP_SUB, dt_k_sub_f32, dt_k_sub_i64)
    DT_K_MAP_CASE(DT_OP_MUL, dt_k_mul_f32, dt_k_mul_i64)
    DT_K_MAP_CASE(DT_OP_DIV, dt_k_div_f32, dt_k_div_i64)
    DT_K_MAP_CASE(DT_OP_GREATER, dt_k_greater_f32, dt_k_greater_i64)
    DT_K_MAP_CASE(DT_OP_NEG, dt_k_neg_f32, dt_k_neg_i64)
    DT_K_MAP_CASE(DT_OP_RELU, dt_k_relu_f32, dt_k_relu_i64)
    DT_K_MAP_CASE(DT_OP_ADD_SCALAR, dt_k_add_scalar_f32, dt_k_add_scalar_i64)
    DT_K_MAP_CASE(DT_OP_MUL_SCALAR, dt_k_mul_scalar_f32, dt_k_mul_scalar_i64)
    DT_K_MAP_FLOAT_CASE(DT_OP_EXP, dt_k_exp_f32)
    DT_K_MAP_FLOAT_CASE(DT_OP_LOG, dt_k_log_f32)
    DT_K_MAP_FLOAT_CASE(DT_OP_SIGMOID, dt_k_sigmoid_f32)
    DT_K_MAP_FLOAT_CASE(DT_OP_TANH, dt_k_tanh_f32)
    DT_K_MAP_FLOAT_CASE(DT_OP_RELU_GRAD, dt_k_relu_grad_f32)
    DT_K_MAP_FLOAT_CASE(DT_OP_SIGMOID_GRAD, dt_k_sigmoid_grad_f32)
    DT_K_MAP_FLOAT_CASE(DT_OP_TANH_GRAD, dt_k_tanh_grad_f32)
    case DT_OP_FILL:
    case DT_OP_WHERE:
    case DT_OP_SUM_DIM:
    case DT_OP_MATMUL:
    case DT_OP_TRANSPOSE:
    case DT_OP_COPY_SLICE:
    case DT_OP_MSE:
    case DT_OP_COUNT:
      break;
  }
#undef DT_K_MAP_CASE
#undef DT_K_MAP_FLOAT_CASE
  return -1;
}

/* ---- broadcast maps ---- */

/* Collapses op's broadcast geometry: drops size-1 axes, merges neighbouring axes along which
   every input is laid out contiguously, and splits the result into rows x inner. Returns 1
   when the result is contiguous for every input (plain map), 0 otherwise. */
static int dt_k_collapse(const dt_op_desc *op, int nin, dt_k_bcast_args *a) {
  int64_t shape[DT_MAX_RANK], st[3][DT_MAX_RANK];
  int r = 0;
  for (int d = 0; d < op->u.bcast.rank; ++d) {
    if (op->u.bcast.shape[d] == 1) continue;
    int merge = r > 0;
    for (int j = 0; j < nin && merge; ++j)
      merge = st[j][r - 1] == op->u.bcast.strides[j][d] * op->u.bcast.shape[d];
    if (merge) {
      shape[r - 1] *= op->u.bcast.shape[d];
      for (int j = 0; j < nin; ++j) st[j][r - 1] = op->u.bcast.strides[j][d];
    } else {
      shape[r] = op->u.bcast.shape[d];
      for (int j = 0; j < nin; ++j) st[j][r] = op->u.bcast.strides[j][d];
      for (int j = nin; j < 3; ++j) st[j][r] = 0;
      ++r;
    }
  }
  memset(a, 0, sizeof *a);
  for (int j = 0; j < nin; ++j) a->in[j] = op->in[j];
  a->out = op->out;
  a->n = op->n;
  if (r == 0) { /* one element */
    a->inner = 1;
    a->rows = 1;
    return 0;
  }
  a->inner = shape[r - 1];
  a->rows = op->n / a->inner;
  a->orank = r - 1;
  a->unit_inner = 1;
  for (int j = 0; j < 3; ++j) {
    a->istride[j] = st[j][r - 1];
    if (j < nin && a->istride[j] != 1) a->unit_inner = 0;
    for (int d = 0; d < r - 1; ++d) a->ostride[j][d] = st[j][d];
  }
  const int contiguous = r == 1 && a->unit_inner;
  for (int d = 0; d < r - 1; ++d) a->oshape[d] = shape[d];
  return contiguous;
}

/* Launches the rows or the flat variant of a broadcast kernel family. A rows grid gives each
   block DT_K_EW_ILP elements per thread of a row (on CUDA the 16-byte groups of
   DT_K_BCAST_ROW_VEC4; other rows loop over the rest). */
#define DT_K_BCAST_LAUNCH(env, fam, a)                                                        \
  ((a).inner >= DT_K_ROWS_MIN_INNER                                                           \
       ? DT_K_LAUNCH(env, fam##_rows, a,                                                      \
                     dt_k_grid(env, (a).inner, DT_K_EW_THREADS * DT_K_EW_ILP),                \
                     dt_k_min((a).rows, DT_K_GRID_Y_MAX), DT_K_EW_THREADS)                    \
       : DT_K_LAUNCH(env, fam##_flat, a, dt_k_grid(env, (a).n, DT_K_EW_THREADS), 1,           \
                     DT_K_EW_THREADS))

static int dt_k_binary(const dt_k_env *env, const dt_op_desc *op) {
  if (op->n == 0) return 0;
  if (op->kind != DT_FLOAT && op->kind != DT_INT) return -1;
  dt_k_bcast_args a;
  if (op->u.bcast.contiguous || dt_k_collapse(op, 2, &a)) return dt_k_map(env, op);
  const int f = op->kind == DT_FLOAT;
  switch (op->op) {
    case DT_OP_ADD:
      return f ? DT_K_BCAST_LAUNCH(env, dt_k_badd_f32, a) : DT_K_BCAST_LAUNCH(env, dt_k_badd_i64, a);
    case DT_OP_SUB:
      return f ? DT_K_BCAST_LAUNCH(env, dt_k_bsub_f32, a) : DT_K_BCAST_LAUNCH(env, dt_k_bsub_i64, a);
    case DT_OP_MUL:
      return f ? DT_K_BCAST_LAUNCH(env, dt_k_bmul_f32, a) : DT_K_BCAST_LAUNCH(env, dt_k_bmul_i64, a);
    case DT_OP_DIV:
      return f ? DT_K_BCAST_LAUNCH(env, dt_k_bdiv_f32, a) : DT_K_BCAST_LAUNCH(env, dt_k_bdiv_i64, a);
    case DT_OP_GREATER:
      return f ? DT_K_BCAST_LAUNCH(env, dt_k_bgreater_f32, a)
               : DT_K_BCAST_LAUNCH(env, dt_k_bgreater_i64, a);
    case DT_OP_FILL:
    case DT_OP_WHERE:
    case DT_OP_ADD_SCALAR:
    case DT_OP_MUL_SCALAR:
    case DT_OP_NEG:
    case DT_OP_EXP:
    case DT_OP_LOG:
    case DT_OP_RELU:
    case DT_OP_SIGMOID:
    case DT_OP_TANH:
    case DT_OP_SUM_DIM:
    case DT_OP_MATMUL:
    case DT_OP_TRANSPOSE:
    case DT_OP_COPY_SLICE:
    case DT_OP_MSE:
    case DT_OP_RELU_GRAD:
    case DT_OP_SIGMOID_GRAD:
    case DT_OP_TANH_GRAD:
    case DT_OP_COUNT:
      break;
  }
  return -1;
}

static int dt_k_where(const dt_k_env *env, const dt_op_desc *op) {
  if (op->n == 0) return 0;
  dt_k_bcast_args a;
  dt_k_collapse(op, 3, &a); /* a contiguous where runs as one long row */
  switch (dt_k_kind_size(op->kind)) {
    case 1:
      return DT_K_BCAST_LAUNCH(env, dt_k_where_u8, a);
    case 4:
      return DT_K_BCAST_LAUNCH(env, dt_k_where_u32, a);
    case 8:
      return DT_K_BCAST_LAUNCH(env, dt_k_where_u64, a);
    default:
      return -1;
  }
}

/* ---- reductions ---- */
#define DT_K_RED_MIN_CHUNK 16384 /* elements of a row worth one block of their own */
#define DT_K_COL_MIN_CHUNK 64    /* rows of a column slice worth one block row of their own */

typedef enum dt_k_red_shape { DT_K_RED_SUM_F32, DT_K_RED_SUM_I64, DT_K_RED_MSE_F32 } dt_k_red_shape;

/* One reduction pass (see reduce.cuh) with the given chunking. */
static int dt_k_reduce_pass(const dt_k_env *env, dt_k_red_shape shape, const dt_k_reduce_args *a) {
  if (a->inner == 1) {
    const int64_t gx = dt_k_min(a->chunks, env->max_blocks);
    const int64_t gy = dt_k_min(a->outer, DT_K_GRID_Y_MAX);
    switch (shape) {
      case DT_K_RED_SUM_F32:
        return DT_K_LAUNCH(env, dt_k_sum_rows_f32, *a, gx, gy, DT_K_RED_THREADS);
      case DT_K_RED_SUM_I64:
        return DT_K_LAUNCH(env, dt_k_sum_rows_i64, *a, gx, gy, DT_K_RED_THREADS);
      case DT_K_RED_MSE_F32:
        return DT_K_LAUNCH(env, dt_k_mse_rows_f32, *a, gx, gy, DT_K_RED_THREADS);
    }
    return -1;
  }
  const int64_t gx = dt_k_grid(env, a->inner, DT_K_RED_THREADS);
  const int64_t gy = dt_k_min(a->outer * a->chunks, DT_K_GRID_Y_MAX);
  switch (shape) {
    case DT_K_RED_SUM_F32:
      return DT_K_LAUNCH(env, dt_k_sum_cols_f32, *a, gx, gy, DT_K_RED_THREADS);
    case DT_K_RED_SUM_I64:
      return DT_K_LAUNCH(env, dt_k_sum_cols_i64, *a, gx, gy, DT_K_RED_THREADS);
    case DT_K_RED_MSE_F32:
      break; /* mse is a full reduction: inner == 1 */
  }
  return -1;
}

/* out[o, i] = finish(scale, sum over l of in[o, l, i]), split into chunks (two passes) when the
   grid would otherwise be too small to fill the device. */
static int dt_k_reduce(const dt_k_env *env, dt_k_red_shape shape, const void *in, const void *in2,
                       void *out, int64_t outer, int64_t len, int64_t inner, float scale) {
  const int is_int = shape == DT_K_RED_SUM_I64;
  const size_t esize = is_int ? 8 : 4;
  if (outer == 0 || inner == 0) return 0;
  if (len == 0) { /* the empty sum, finished (mean of nothing: 0 * inf = NaN) */
    const float v = scale * 0.0f;
    return dt_k_fill_bits(env, out, outer * inner, esize,
                          is_int ? 0 : dt_k_value_bits(DT_FLOAT, v));
  }
  dt_k_reduce_args a;
  memset(&a, 0, sizeof a);
  a.in = in;
  a.in2 = in2;
  a.out = out;
  a.outer = outer;
  a.len = len;
  a.inner = inner;
  a.scale = scale;
  /* chunks: enough blocks to fill the device, none smaller than the minimum chunk */
  const int64_t slots = inner == 1 ? outer : outer * dt_k_cdiv(inner, DT_K_RED_THREADS);
  const int64_t min_chunk = inner == 1 ? DT_K_RED_MIN_CHUNK : DT_K_COL_MIN_CHUNK;
  int64_t chunks = dt_k_min(dt_k_cdiv(len, min_chunk), dt_k_max(1, env->max_blocks / slots));
  if (inner > 1) chunks = dt_k_min(chunks, dt_k_max(1, DT_K_GRID_Y_MAX / outer));
  chunks = dt_k_max(1, chunks);
  a.chunk_len = dt_k_cdiv(len, chunks);
  a.chunks = dt_k_cdiv(len, a.chunk_len);
  if (a.chunks == 1) return dt_k_reduce_pass(env, shape, &a);

  void *partial = env->scratch(env, (size_t)(outer * a.chunks * inner) * esize);
  if (partial == NULL) return -1;
  a.out = partial;
  int rc = dt_k_reduce_pass(env, shape, &a);
  if (rc != 0) return rc;
  dt_k_reduce_args b;
  memset(&b, 0, sizeof b);
  b.in = partial;
  b.out = out;
  b.outer = outer;
  b.len = a.chunks;
  b.inner = inner;
  b.chunks = 1;
  b.chunk_len = a.chunks;
  b.scale = scale;
  return dt_k_reduce_pass(env, is_int ? DT_K_RED_SUM_I64 : DT_K_RED_SUM_F32, &b);
}

/* ---- layout ---- */
static int dt_k_transpose(const dt_k_env *env, const dt_op_desc *op) {
  dt_k_transpose_args a;
  memset(&a, 0, sizeof a);
  a.in = op->in[0];
  a.out = op->out;
  a.rows = op->u.transpose.rows;
  a.cols = op->u.transpose.cols;
  if (a.rows == 0 || a.cols == 0) return 0;
  const int64_t gx = dt_k_min(dt_k_cdiv(a.cols, DT_K_TILE), env->max_blocks);
  const int64_t gy = dt_k_min(dt_k_cdiv(a.rows, DT_K_TILE), DT_K_GRID_Y_MAX);
  switch (dt_k_kind_size(op->kind)) {
    case 1:
      return DT_K_LAUNCH(env, dt_k_transpose_u8, a, gx, gy, DT_K_TRANSPOSE_THREADS);
    case 4:
      return DT_K_LAUNCH(env, dt_k_transpose_u32, a, gx, gy, DT_K_TRANSPOSE_THREADS);
    case 8:
      return DT_K_LAUNCH(env, dt_k_transpose_u64, a, gx, gy, DT_K_TRANSPOSE_THREADS);
    default:
      return -1;
  }
}

#define DT_K_RUNS_LAUNCH(env, fam, a)                                                           \
  ((a).run >= DT_K_ROWS_MIN_INNER                                                               \
       ? DT_K_LAUNCH(env, fam##_rows, a, dt_k_grid(env, (a).run, DT_K_COPY_THREADS),            \
                     dt_k_min((a).rows, DT_K_GRID_Y_MAX), DT_K_COPY_THREADS)                    \
       : DT_K_LAUNCH(env, fam##_flat, a, dt_k_grid(env, (a).rows * (a).run, DT_K_COPY_THREADS), \
                     1, DT_K_COPY_THREADS))

static int dt_k_copy_slice(const dt_k_env *env, const dt_op_desc *op) {
  const size_t es = dt_k_kind_size(op->kind);
  const int64_t inner = op->u.slice.inner;
  dt_k_runs_args a;
  memset(&a, 0, sizeof a);
  a.rows = op->u.slice.outer;
  a.run = op->u.slice.len * inner;
  if (a.rows == 0 || a.run == 0 || es == 0) return es == 0 ? -1 : 0;
  a.in = (const char *)op->in[0] + (size_t)(op->u.slice.src_start * inner) * es;
  a.out = (char *)op->out + (size_t)(op->u.slice.dst_start * inner) * es;
  a.src_pitch = op->u.slice.src_len * inner;
  a.dst_pitch = op->u.slice.dst_len * inner;
  switch (es) {
    case 1:
      return DT_K_RUNS_LAUNCH(env, dt_k_runs_u8, a);
    case 4:
      return DT_K_RUNS_LAUNCH(env, dt_k_runs_u32, a);
    case 8:
      return DT_K_RUNS_LAUNCH(env, dt_k_runs_u64, a);
    default:
      return -1;
  }
}

/* ---- matmul ---- */

/* The tiled kernels read row-major operands: a transposed operand (u.matmul.trans_a/trans_b) is
   transposed into scratch memory first (the cuda backend sends float products to cuBLAS, which
   takes the flags itself). On success *a_out / *b_out are the operands to read. */
static int dt_k_matmul_untranspose(const dt_k_env *env, const dt_op_desc *op, const void **a_out,
                                   const void **b_out) {
  const int64_t m = op->u.matmul.m, n = op->u.matmul.n, k = op->u.matmul.k;
  const size_t es = dt_k_kind_size(op->kind);
  const int ta = op->u.matmul.trans_a, tb = op->u.matmul.trans_b;
  const size_t a_bytes = ta ? ((size_t)(m * k) * es + 255) / 256 * 256 : 0;
  const size_t b_bytes = tb ? (size_t)(k * n) * es : 0;
  *a_out = op->in[0];
  *b_out = op->in[1];
  if (a_bytes + b_bytes == 0) return 0;
  char *scratch = (char *)env->scratch(env, a_bytes + b_bytes);
  if (scratch == NULL) return -1;
  dt_op_desc t;
  memset(&t, 0, sizeof t);
  t.op = DT_OP_TRANSPOSE;
  t.kind = t.out_kind = op->kind;
  if (ta) { /* in0 is stored [k, m] */
    t.in[0] = op->in[0];
    t.out = scratch;
    t.u.transpose.rows = k;
    t.u.transpose.cols = m;
    if (dt_k_transpose(env, &t) != 0) return -1;
    *a_out = scratch;
  }
  if (tb) { /* in1 is stored [n, k] */
    t.in[0] = op->in[1];
    t.out = scratch + a_bytes;
    t.u.transpose.rows = n;
    t.u.transpose.cols = k;
    if (dt_k_transpose(env, &t) != 0) return -1;
    *b_out = scratch + a_bytes;
  }
  return 0;
}

static int dt_k_matmul(const dt_k_env *env, const dt_op_desc *op) {
  const int64_t m = op->u.matmul.m, n = op->u.matmul.n, k = op->u.matmul.k;
  if (m == 0 || n == 0) return 0;
  if (k == 0) return dt_k_fill_bits(env, op->out, m * n, dt_k_kind_size(op->kind), 0);
  dt_k_matmul_args a;
  memset(&a, 0, sizeof a);
  if (dt_k_matmul_untranspose(env, op, &a.a, &a.b) != 0) return -1;
  a.c = op->out;
  a.m = m;
  a.n = n;
  a.k = k;
  const int aligned = DT_K_MM_VEC_LOADS && (((uintptr_t)a.a | (uintptr_t)a.b) & 15) == 0;
  switch (op->kind) {
    case DT_FLOAT:
      a.vec = aligned && k % DT_K_MMF_V == 0 && n % DT_K_MMF_V == 0;
      return DT_K_LAUNCH(env, dt_k_matmul_f32, a, dt_k_min(dt_k_cdiv(n, DT_K_MMF_BN), env->max_blocks),
                         dt_k_min(dt_k_cdiv(m, DT_K_MMF_BM), DT_K_GRID_Y_MAX), DT_K_MMF_THREADS);
    case DT_INT:
      a.vec = aligned && k % DT_K_MMI_V == 0 && n % DT_K_MMI_V == 0;
      return DT_K_LAUNCH(env, dt_k_matmul_i64, a, dt_k_min(dt_k_cdiv(n, DT_K_MMI_BN), env->max_blocks),
                         dt_k_min(dt_k_cdiv(m, DT_K_MMI_BM), DT_K_GRID_Y_MAX), DT_K_MMI_THREADS);
    case DT_BOOL:
      break;
  }
  return -1;
}

/* ---- the entry point ---- */
static int dt_k_run(const dt_k_env *env, const dt_op_desc *op) {
  switch (op->op) {
    case DT_OP_FILL:
      return dt_k_fill_bits(env, op->out, op->n, dt_k_kind_size(op->out_kind),
                            dt_k_value_bits(op->out_kind, op->u.scalar.value));
    case DT_OP_ADD:
    case DT_OP_SUB:
    case DT_OP_MUL:
    case DT_OP_DIV:
    case DT_OP_GREATER:
      return dt_k_binary(env, op);
    case DT_OP_WHERE:
      return dt_k_where(env, op);
    case DT_OP_ADD_SCALAR:
    case DT_OP_MUL_SCALAR:
    case DT_OP_NEG:
    case DT_OP_EXP:
    case DT_OP_LOG:
    case DT_OP_RELU:
    case DT_OP_SIGMOID:
    case DT_OP_TANH:
    case DT_OP_RELU_GRAD:
    case DT_OP_SIGMOID_GRAD:
    case DT_OP_TANH_GRAD:
      return dt_k_map(env, op);
    case DT_OP_SUM_DIM:
      if (op->kind != DT_FLOAT && op->kind != DT_INT) return -1;
      return dt_k_reduce(env, op->kind == DT_FLOAT ? DT_K_RED_SUM_F32 : DT_K_RED_SUM_I64,
                         op->in[0], NULL, op->out, op->u.reduce.outer, op->u.reduce.len,
                         op->u.reduce.inner, op->u.reduce.scale);
    case DT_OP_MATMUL:
      return dt_k_matmul(env, op);
    case DT_OP_TRANSPOSE:
      return dt_k_transpose(env, op);
    case DT_OP_COPY_SLICE:
      return dt_k_copy_slice(env, op);
    case DT_OP_MSE:
      if (op->kind != DT_FLOAT) return -1;
      return dt_k_reduce(env, DT_K_RED_MSE_F32, op->in[0], op->in[1], op->out, 1, op->n, 1,
                         1.0f / (float)op->n);
    case DT_OP_COUNT:
      break;
  }
  return -1;
}

#endif /* DT_KERNELS_LAUNCH_H */
