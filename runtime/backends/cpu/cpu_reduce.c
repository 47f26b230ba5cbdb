/* runtime/backends/cpu/cpu_reduce.c — reductions of the cpu backend: sums over an axis (a full
 * sum is the case outer = inner = 1) and the mean squared error. Float sums are blocked for
 * accuracy: short blocks are summed in float over several vector lanes, and the block totals
 * are accumulated in double, so the error does not grow with the length. Sums over an axis
 * are split over the worker threads by output element (cpu_parallel.c): each output's sum is
 * computed the same way whatever the split, so results do not depend on the thread count. */
#include <stdint.h>

#include "cpu_kernels.h"
#include "cpu_parallel.h"

#define SUM_BLOCK 1024 /* elements per float block */
#define SUM_LANES 16   /* independent float accumulators (vectorizable) */
#define COL_CHUNK 256  /* columns reduced at once when inner > 1 */
#define ROW_BLOCK 64   /* rows summed in float before a column's double total */

static float lanes_total(float acc[SUM_LANES]) {
  for (int w = SUM_LANES / 2; w > 0; w /= 2)
    for (int k = 0; k < w; k++) acc[k] += acc[k + w];
  return acc[0];
}

/* Sum of x[0..n) (blocked; double block totals). */
CPU_VECTOR_CLONES
static double sum_f32(const float *restrict x, int64_t n) {
  double total = 0.0;
  for (int64_t b = 0; b < n; b += SUM_BLOCK) {
    const int64_t m = n - b < SUM_BLOCK ? n - b : SUM_BLOCK;
    const float *restrict p = x + b;
    float acc[SUM_LANES] = {0};
    int64_t i = 0;
    for (; i + SUM_LANES <= m; i += SUM_LANES)
      for (int k = 0; k < SUM_LANES; k++) acc[k] += p[i + k];
    for (; i < m; i++) acc[i % SUM_LANES] += p[i];
    total += (double)lanes_total(acc);
  }
  return total;
}

/* Sum of (a[i] - b[i])^2 over n, blocked like sum_f32. */
CPU_VECTOR_CLONES
static double sum_sq_diff_f32(const float *restrict a, const float *restrict b, int64_t n) {
  double total = 0.0;
  for (int64_t s = 0; s < n; s += SUM_BLOCK) {
    const int64_t m = n - s < SUM_BLOCK ? n - s : SUM_BLOCK;
    float acc[SUM_LANES] = {0};
    int64_t i = 0;
    for (; i + SUM_LANES <= m; i += SUM_LANES)
      for (int k = 0; k < SUM_LANES; k++) {
        const float d = a[s + i + k] - b[s + i + k];
        acc[k] += d * d;
      }
    for (; i < m; i++) {
      const float d = a[s + i] - b[s + i];
      acc[i % SUM_LANES] += d * d;
    }
    total += (double)lanes_total(acc);
  }
  return total;
}

/* out[c] = scale * sum_j in[j*stride + c] for c < inner, columns in chunks, rows blocked. */
CPU_VECTOR_CLONES
static void sum_columns_f32(const float *restrict in, int64_t len, int64_t stride, int64_t inner,
                            float scale, float *restrict out) {
  for (int64_t c0 = 0; c0 < inner; c0 += COL_CHUNK) {
    const int64_t w = inner - c0 < COL_CHUNK ? inner - c0 : COL_CHUNK;
    double total[COL_CHUNK] = {0};
    for (int64_t j0 = 0; j0 < len; j0 += ROW_BLOCK) {
      const int64_t rows = len - j0 < ROW_BLOCK ? len - j0 : ROW_BLOCK;
      float part[COL_CHUNK] = {0};
      for (int64_t j = j0; j < j0 + rows; j++) {
        const float *restrict row = in + j * stride + c0;
        for (int64_t c = 0; c < w; c++) part[c] += row[c];
      }
      for (int64_t c = 0; c < w; c++) total[c] += (double)part[c];
    }
    for (int64_t c = 0; c < w; c++) out[c0 + c] = (float)(total[c] * (double)scale);
  }
}

CPU_VECTOR_CLONES
static void sum_dim_i64(const int64_t *restrict in, int64_t outer, int64_t len, int64_t inner,
                        int64_t *restrict out) {
  for (int64_t o = 0; o < outer; o++) {
    uint64_t *restrict acc = (uint64_t *)(out + o * inner);
    for (int64_t c = 0; c < inner; c++) acc[c] = 0;
    for (int64_t j = 0; j < len; j++) {
      const int64_t *restrict row = in + (o * len + j) * inner;
      for (int64_t c = 0; c < inner; c++) acc[c] += (uint64_t)row[c];
    }
  }
}

/* Outputs [b, e) of a float sum over an axis, out[o*inner + c]. */
static void sum_dim_range(void *ctx, int64_t b, int64_t e) {
  const dt_op_desc *op = ctx;
  const int64_t len = op->u.reduce.len, inner = op->u.reduce.inner;
  const float *in = op->in[0];
  float *out = op->out;
  const float scale = op->u.reduce.scale;
  if (inner == 1) {
    for (int64_t o = b; o < e; o++) out[o] = (float)(sum_f32(in + o * len, len) * (double)scale);
    return;
  }
  for (int64_t i = b; i < e;) { /* the columns of one outer slice at a time */
    const int64_t o = i / inner, c0 = i % inner;
    const int64_t c1 = (o + 1) * inner < e ? inner : e - o * inner;
    sum_columns_f32(in + o * len * inner + c0, len, inner, c1 - c0, scale, out + i);
    i += c1 - c0;
  }
}

int cpu_sum_dim(const dt_op_desc *op) {
  const int64_t outer = op->u.reduce.outer, len = op->u.reduce.len, inner = op->u.reduce.inner;
  if (op->kind == DT_INT && op->out_kind == DT_INT) {
    sum_dim_i64(op->in[0], outer, len, inner, op->out);
    return 0;
  }
  if (op->kind != DT_FLOAT || op->out_kind != DT_FLOAT)
    return cpu_set_error("sum: unsupported kind", op);
  const int64_t per_output = len > 0 ? len : 1;
  int64_t grain = CPU_PARALLEL_GRAIN / per_output;
  if (inner > 1 && grain < 16) grain = 16; /* whole vectors of columns per range */
  if (grain < 1) grain = 1;
  cpu_parallel_for(outer * inner, grain, sum_dim_range, (void *)op);
  return 0;
}

int cpu_mse(const dt_op_desc *op) {
  if (op->kind != DT_FLOAT || op->out_kind != DT_FLOAT)
    return cpu_set_error("mse: unsupported kind", op);
  const int64_t n = op->n; /* for MSE, the inputs' element count (dt/backend.h) */
  float *out = op->out;
  out[0] = (float)(sum_sq_diff_f32(op->in[0], op->in[1], n) / (double)n);
  return 0;
}
