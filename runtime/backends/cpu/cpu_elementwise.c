/* runtime/backends/cpu/cpu_elementwise.c — element-wise kernels of the cpu backend: fill,
 * broadcast binary operations, where, scalar and unary operations. Inner loops are written
 * for the compiler's vectorizer (restrict pointers, unit-stride fast paths); broadcasting walks
 * the output row by row after merging axes that are contiguous for every operand. Large loops
 * are split into ranges run on the backend's worker threads (cpu_parallel.c); each range writes
 * its own outputs, so results do not depend on the thread count. Integer arithmetic wraps (two's
 * complement) instead of overflowing. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cpu_kernels.h"
#include "cpu_parallel.h"

/* ---- integer helpers: wrapping arithmetic, defined division, saturating conversion ---- */

static inline int64_t wrap_add(int64_t x, int64_t y) { return (int64_t)((uint64_t)x + (uint64_t)y); }
static inline int64_t wrap_sub(int64_t x, int64_t y) { return (int64_t)((uint64_t)x - (uint64_t)y); }
static inline int64_t wrap_mul(int64_t x, int64_t y) { return (int64_t)((uint64_t)x * (uint64_t)y); }
static inline int64_t safe_div(int64_t x, int64_t y) {
  if (y == 0) return 0;
  if (y == -1) return wrap_sub(0, x);
  return x / y;
}
/* (int64_t)v truncated toward zero; NaN gives 0, out-of-range values saturate. */
static inline int64_t to_i64(double v) {
  if (v != v) return 0;
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)v;
}

/* ---- fill ---- */

CPU_VECTOR_CLONES
static void fill_range(void *ctx, int64_t b, int64_t e) {
  const dt_op_desc *op = ctx;
  const float v = op->u.scalar.value;
  switch (op->out_kind) {
    case DT_FLOAT: {
      float *restrict o = op->out;
      for (int64_t i = b; i < e; i++) o[i] = v;
      return;
    }
    case DT_INT: {
      int64_t *restrict o = op->out;
      const int64_t iv = to_i64(v);
      for (int64_t i = b; i < e; i++) o[i] = iv;
      return;
    }
    case DT_BOOL:
      memset((uint8_t *)op->out + b, v != 0.0f, (size_t)(e - b));
      return;
  }
}

int cpu_fill(const dt_op_desc *op) {
  if (op->out_kind != DT_FLOAT && op->out_kind != DT_INT && op->out_kind != DT_BOOL)
    return cpu_set_error("fill: unknown kind", op);
  cpu_parallel_for(op->n, CPU_PARALLEL_GRAIN, fill_range, (void *)op);
  return 0;
}

/* ---- broadcasting driver ---- */

/* A block of `rows` output rows of n elements each (the output is contiguous: row r starts at
   out + r*n); in[k] advances by s[k] elements per output element and by rs[k] per row. One call
   per block, not per row: a bias broadcast over a [256, 32] batch is one call of 256 rows. */
typedef void (*cpu_row_fn)(const void *const in[3], const int64_t s[3], const int64_t rs[3],
                           void *out, int64_t n, int64_t rows);

/* A broadcast operation's merged geometry: dim[0] (innermost) .. dim[m-1], strides st. */
typedef struct bcast_job {
  const dt_op_desc *op;
  int nin, m;
  size_t es[3], es_out;
  cpu_row_fn row;
  int64_t dim[DT_MAX_RANK], st[3][DT_MAX_RANK];
} bcast_job;

/* Elements [b, e) of a single contiguous-for-its-strides row (m <= 1). */
static void bcast_flat_range(void *ctx, int64_t b, int64_t e) {
  const bcast_job *j = ctx;
  const void *in[3] = {NULL, NULL, NULL};
  int64_t s[3] = {0, 0, 0};
  const int64_t rs[3] = {0, 0, 0};
  for (int k = 0; k < j->nin; k++) {
    s[k] = j->m == 0 ? 1 : j->st[k][0];
    in[k] = (const char *)j->op->in[k] + b * s[k] * (int64_t)j->es[k];
  }
  j->row(in, s, rs, (char *)j->op->out + b * (int64_t)j->es_out, e - b, 1);
}

/* Output rows [r0, r1) of dim[0] elements each, in blocks along dim[1]. */
static void bcast_rows_range(void *ctx, int64_t r0, int64_t r1) {
  const bcast_job *j = ctx;
  const int nin = j->nin, m = j->m;
  int64_t idx[DT_MAX_RANK] = {0};
  int64_t off[3] = {0, 0, 0};
  int64_t rest = r0;
  for (int d = 1; d < m; d++) { /* the row's index, digit by digit */
    idx[d] = rest % j->dim[d];
    rest /= j->dim[d];
    for (int k = 0; k < nin; k++) off[k] += idx[d] * j->st[k][d];
  }
  int64_t s0[3] = {0, 0, 0}, s1[3] = {0, 0, 0};
  for (int k = 0; k < nin; k++) {
    s0[k] = j->st[k][0];
    s1[k] = j->st[k][1];
  }
  const int64_t len = j->dim[0];
  char *out = j->op->out;
  for (int64_t r = r0; r < r1;) {
    /* the rows left in this block of dim[1] */
    int64_t rows = j->dim[1] - idx[1];
    if (rows > r1 - r) rows = r1 - r;
    const void *in[3] = {NULL, NULL, NULL};
    for (int k = 0; k < nin; k++) in[k] = (const char *)j->op->in[k] + off[k] * (int64_t)j->es[k];
    j->row(in, s0, s1, out + r * len * (int64_t)j->es_out, len, rows);
    r += rows;
    idx[1] += rows;
    for (int k = 0; k < nin; k++) off[k] += rows * j->st[k][1];
    for (int d = 1; d < m && idx[d] >= j->dim[d]; d++) { /* carry */
      for (int k = 0; k < nin; k++) off[k] -= j->st[k][d] * j->dim[d];
      idx[d] = 0;
      if (d + 1 < m) {
        idx[d + 1]++;
        for (int k = 0; k < nin; k++) off[k] += j->st[k][d + 1];
      }
    }
  }
}

static void broadcast_run(const dt_op_desc *op, int nin, const size_t es[3], size_t es_out,
                          cpu_row_fn row) {
  bcast_job j;
  j.op = op;
  j.nin = nin;
  j.es_out = es_out;
  j.row = row;
  j.m = 0;
  for (int k = 0; k < 3; k++) j.es[k] = es[k];
  if (!op->u.bcast.contiguous && op->u.bcast.rank > 0) {
    /* Merge axes into dim[0] (innermost) .. dim[m-1], dropping size-1 axes. */
    for (int a = op->u.bcast.rank - 1; a >= 0; a--) {
      const int64_t len = op->u.bcast.shape[a];
      if (len == 1) continue;
      int mergeable = j.m > 0;
      for (int k = 0; k < nin && mergeable; k++)
        mergeable = op->u.bcast.strides[k][a] == j.st[k][j.m - 1] * j.dim[j.m - 1];
      if (mergeable) {
        j.dim[j.m - 1] *= len;
        continue;
      }
      j.dim[j.m] = len;
      for (int k = 0; k < nin; k++) j.st[k][j.m] = op->u.bcast.strides[k][a];
      j.m++;
    }
  }
  if (j.m <= 1) { /* one row: split along it */
    cpu_parallel_for(op->n, CPU_PARALLEL_GRAIN, bcast_flat_range, &j);
    return;
  }
  const int64_t rows = op->n / j.dim[0];
  int64_t grain = CPU_PARALLEL_GRAIN / j.dim[0];
  cpu_parallel_for(rows, grain > 0 ? grain : 1, bcast_rows_range, &j);
}

/* ---- binary rows: unit-stride, scalar-operand and general-stride loops, the choice made once
   per block of rows ---- */

/* Each row's loop: X and Y are the element reads (a[i] or a[0], ...), TO the output type. */
#define CPU_BINARY_ROWS(TI, TO, EXPR, X, Y)                                                  \
  for (int64_t r = 0; r < rows; r++) {                                                       \
    const TI *restrict a = a0 + r * ra;                                                      \
    const TI *restrict b = b0 + r * rb;                                                      \
    TO *restrict o = o0 + r * n;                                                             \
    for (int64_t i = 0; i < n; i++) {                                                        \
      const TI x = (X), y = (Y);                                                             \
      o[i] = (EXPR);                                                                         \
    }                                                                                        \
  }

#define CPU_BINARY_ROW(NAME, TI, TO, EXPR)                                                   \
  CPU_VECTOR_CLONES                                                                          \
  static void NAME(const void *const in[3], const int64_t s[3], const int64_t rs[3],         \
                   void *out, int64_t n, int64_t rows) {                                     \
    const TI *a0 = in[0];                                                                    \
    const TI *b0 = in[1];                                                                    \
    TO *o0 = out;                                                                            \
    const int64_t sa = s[0], sb = s[1], ra = rs[0], rb = rs[1];                              \
    if (sa == 1 && sb == 1) {                                                                \
      CPU_BINARY_ROWS(TI, TO, EXPR, a[i], b[i])                                              \
    } else if (sa == 1 && sb == 0) {                                                         \
      CPU_BINARY_ROWS(TI, TO, EXPR, a[i], b[0])                                              \
    } else if (sa == 0 && sb == 1) {                                                         \
      CPU_BINARY_ROWS(TI, TO, EXPR, a[0], b[i])                                              \
    } else {                                                                                 \
      CPU_BINARY_ROWS(TI, TO, EXPR, a[i * sa], b[i * sb])                                    \
    }                                                                                        \
  }

CPU_BINARY_ROW(row_add_f32, float, float, x + y)
CPU_BINARY_ROW(row_sub_f32, float, float, x - y)
CPU_BINARY_ROW(row_mul_f32, float, float, x * y)
CPU_BINARY_ROW(row_div_f32, float, float, x / y)
CPU_BINARY_ROW(row_gt_f32, float, uint8_t, x > y)
CPU_BINARY_ROW(row_add_i64, int64_t, int64_t, wrap_add(x, y))
CPU_BINARY_ROW(row_sub_i64, int64_t, int64_t, wrap_sub(x, y))
CPU_BINARY_ROW(row_mul_i64, int64_t, int64_t, wrap_mul(x, y))
CPU_BINARY_ROW(row_div_i64, int64_t, int64_t, safe_div(x, y))
CPU_BINARY_ROW(row_gt_i64, int64_t, uint8_t, x > y)

static cpu_row_fn binary_row(dt_op op, dt_kind k) {
  const int f = k == DT_FLOAT;
  if (k != DT_FLOAT && k != DT_INT) return NULL;
  switch (op) {
    case DT_OP_ADD:
      return f ? row_add_f32 : row_add_i64;
    case DT_OP_SUB:
      return f ? row_sub_f32 : row_sub_i64;
    case DT_OP_MUL:
      return f ? row_mul_f32 : row_mul_i64;
    case DT_OP_DIV:
      return f ? row_div_f32 : row_div_i64;
    case DT_OP_GREATER:
      return f ? row_gt_f32 : row_gt_i64;
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
  return NULL;
}

int cpu_binary(const dt_op_desc *op) {
  cpu_row_fn row = binary_row(op->op, op->kind);
  if (row == NULL) return cpu_set_error("binary operation: unsupported kind", op);
  const size_t es = op->kind == DT_FLOAT ? sizeof(float) : sizeof(int64_t);
  const size_t es_out = op->op == DT_OP_GREATER ? 1 : es;
  const size_t sizes[3] = {es, es, 0};
  broadcast_run(op, 2, sizes, es_out, row);
  return 0;
}

/* ---- where: copies elements of the value kind's width ---- */

#define CPU_WHERE_ROWS(T, C, X, Y)                                                            \
  for (int64_t r = 0; r < rows; r++) {                                                        \
    const uint8_t *restrict c = c0 + r * rs[0];                                               \
    const T *restrict a = a0 + r * rs[1];                                                     \
    const T *restrict b = b0 + r * rs[2];                                                     \
    T *restrict o = o0 + r * n;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                         \
      const T x = (X), y = (Y);                                                               \
      o[i] = (C) ? x : y;                                                                     \
    }                                                                                         \
  }

/* Unit-stride and one-scalar-operand rows (relu's gradient: where(mask, g, 0)) read both
   values and select, which the vectorizer turns into a blend. */
#define CPU_WHERE_ROW(NAME, T)                                                                \
  CPU_VECTOR_CLONES                                                                           \
  static void NAME(const void *const in[3], const int64_t s[3], const int64_t rs[3],          \
                   void *out, int64_t n, int64_t rows) {                                      \
    const uint8_t *c0 = in[0];                                                                \
    const T *a0 = in[1];                                                                      \
    const T *b0 = in[2];                                                                      \
    T *o0 = out;                                                                              \
    if (s[0] == 1 && s[1] == 1 && s[2] == 1) {                                                \
      CPU_WHERE_ROWS(T, c[i], a[i], b[i])                                                     \
    } else if (s[0] == 1 && s[1] == 1 && s[2] == 0) {                                         \
      CPU_WHERE_ROWS(T, c[i], a[i], b[0])                                                     \
    } else if (s[0] == 1 && s[1] == 0 && s[2] == 1) {                                         \
      CPU_WHERE_ROWS(T, c[i], a[0], b[i])                                                     \
    } else {                                                                                  \
      CPU_WHERE_ROWS(T, c[i * s[0]], a[i * s[1]], b[i * s[2]])                                \
    }                                                                                         \
  }

CPU_WHERE_ROW(row_where_u8, uint8_t)
CPU_WHERE_ROW(row_where_u32, uint32_t)
CPU_WHERE_ROW(row_where_u64, uint64_t)

int cpu_where(const dt_op_desc *op) {
  const size_t es = op->kind == DT_FLOAT ? 4 : op->kind == DT_INT ? 8 : op->kind == DT_BOOL ? 1 : 0;
  const cpu_row_fn row = es == 4 ? row_where_u32 : es == 8 ? row_where_u64 : row_where_u8;
  if (es == 0) return cpu_set_error("where: unknown kind", op);
  const size_t sizes[3] = {1, es, es};
  broadcast_run(op, 3, sizes, es, row);
  return 0;
}

/* ---- scalar and unary operations (same shape in and out), over ranges [b, e) ---- */

#define CPU_MAP(T, EXPR)                               \
  do {                                                 \
    const T *restrict a = op->in[0];                   \
    T *restrict o = op->out;                           \
    for (int64_t i = b; i < e; i++) {                  \
      const T x = a[i];                                \
      o[i] = (EXPR);                                   \
    }                                                  \
  } while (0)

CPU_VECTOR_CLONES
static void scalar_range(void *ctx, int64_t b, int64_t e) {
  const dt_op_desc *op = ctx;
  const float s = op->u.scalar.value;
  const double sd = s;
  const int add = op->op == DT_OP_ADD_SCALAR;
  if (op->kind == DT_FLOAT) {
    if (add)
      CPU_MAP(float, x + s);
    else
      CPU_MAP(float, x * s);
  } else if (add) {
    CPU_MAP(int64_t, to_i64((double)x + sd));
  } else {
    CPU_MAP(int64_t, to_i64((double)x * sd));
  }
}

int cpu_scalar(const dt_op_desc *op) {
  if (op->kind != DT_FLOAT && op->kind != DT_INT)
    return cpu_set_error("scalar operation: unsupported kind", op);
  cpu_parallel_for(op->n, CPU_PARALLEL_GRAIN, scalar_range, (void *)op);
  return 0;
}

static inline float sigmoid_f32(float x) { return 1.0f / (1.0f + expf(-x)); }

CPU_VECTOR_CLONES
static void unary_range(void *ctx, int64_t b, int64_t e) {
  const dt_op_desc *op = ctx;
  const dt_op k = op->op;
  if (op->kind == DT_INT && k == DT_OP_NEG)
    CPU_MAP(int64_t, wrap_sub(0, x));
  else if (op->kind == DT_INT) /* relu */
    CPU_MAP(int64_t, x > 0 ? x : 0);
  else if (k == DT_OP_NEG)
    CPU_MAP(float, -x);
  else if (k == DT_OP_EXP)
    CPU_MAP(float, expf(x));
  else if (k == DT_OP_LOG)
    CPU_MAP(float, logf(x));
  else if (k == DT_OP_RELU)
    CPU_MAP(float, x > 0.0f ? x : 0.0f);
  else if (k == DT_OP_SIGMOID)
    CPU_MAP(float, sigmoid_f32(x));
  else /* tanh */
    CPU_MAP(float, tanhf(x));
}

int cpu_unary(const dt_op_desc *op) {
  const dt_op k = op->op;
  if (op->kind == DT_INT && k != DT_OP_NEG && k != DT_OP_RELU)
    return cpu_set_error("unary operation: unsupported kind", op);
  if (op->kind != DT_FLOAT && op->kind != DT_INT)
    return cpu_set_error("unary operation: unsupported kind", op);
  if (k != DT_OP_NEG && k != DT_OP_EXP && k != DT_OP_LOG && k != DT_OP_RELU &&
      k != DT_OP_SIGMOID && k != DT_OP_TANH)
    return cpu_set_error("unary operation: not a unary op", op);
  /* exp, log, sigmoid, tanh cost far more than a load: a thread pays off sooner */
  const int64_t grain = (k == DT_OP_NEG || k == DT_OP_RELU) ? CPU_PARALLEL_GRAIN
                                                            : CPU_PARALLEL_GRAIN / 8;
  cpu_parallel_for(op->n, grain, unary_range, (void *)op);
  return 0;
}

/* ---- activation gradients: two same-shape float inputs, one pass ---- */

CPU_VECTOR_CLONES
static void act_grad_range(void *ctx, int64_t b, int64_t e) {
  const dt_op_desc *op = ctx;
  const float *restrict v = op->in[0];
  const float *restrict g = op->in[1];
  float *restrict o = op->out;
  if (op->op == DT_OP_RELU_GRAD) /* both loaded, then selected: the vectorizer's blend */
    for (int64_t i = b; i < e; i++) {
      const float x = v[i], y = g[i];
      o[i] = x > 0.0f ? y : 0.0f;
    }
  else if (op->op == DT_OP_SIGMOID_GRAD)
    for (int64_t i = b; i < e; i++) o[i] = g[i] * v[i] * (1.0f - v[i]);
  else /* tanh */
    for (int64_t i = b; i < e; i++) o[i] = g[i] * (1.0f - v[i] * v[i]);
}

int cpu_act_grad(const dt_op_desc *op) {
  if (op->kind != DT_FLOAT) return cpu_set_error("activation gradient: unsupported kind", op);
  cpu_parallel_for(op->n, CPU_PARALLEL_GRAIN, act_grad_range, (void *)op);
  return 0;
}
