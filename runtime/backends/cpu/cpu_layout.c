/* runtime/backends/cpu/cpu_layout.c — the cpu backend's matrix product (OpenBLAS cblas_sgemm
 * for float, its transpose flags for transposed operands; an i-k-j loop for int), blocked 2-D
 * transpose, and the slice copy used by cat and its gradient. */
#include <cblas.h>
#include <stdint.h>
#include <string.h>

#include "cpu_blas.h"
#include "cpu_kernels.h"

/* c = op(a) x op(b) in wrapping int64 arithmetic; element (i, p) of op(a) is at i*sa_i + p*sa_p. */
static void matmul_i64(const int64_t *restrict a, const int64_t *restrict b, int64_t *restrict c,
                       int64_t m, int64_t k, int64_t n, int trans_a, int trans_b) {
  const int64_t sa_i = trans_a ? 1 : k, sa_p = trans_a ? m : 1;
  const int64_t sb_p = trans_b ? 1 : n, sb_j = trans_b ? k : 1;
  for (int64_t i = 0; i < m; i++) {
    uint64_t *restrict row = (uint64_t *)(c + i * n);
    for (int64_t j = 0; j < n; j++) row[j] = 0;
    for (int64_t p = 0; p < k; p++) {
      const uint64_t x = (uint64_t)a[i * sa_i + p * sa_p];
      const int64_t *restrict brow = b + p * sb_p;
      if (sb_j == 1)
        for (int64_t j = 0; j < n; j++) row[j] += x * (uint64_t)brow[j];
      else
        for (int64_t j = 0; j < n; j++) row[j] += x * (uint64_t)brow[j * sb_j];
    }
  }
}

int cpu_matmul(const dt_op_desc *op) {
  const int64_t m = op->u.matmul.m, k = op->u.matmul.k, n = op->u.matmul.n;
  const int ta = op->u.matmul.trans_a, tb = op->u.matmul.trans_b;
  if (op->kind == DT_INT) {
    matmul_i64(op->in[0], op->in[1], op->out, m, k, n, ta, tb);
    return 0;
  }
  if (op->kind != DT_FLOAT) return cpu_set_error("matmul: unsupported kind", op);
  if (m == 0 || n == 0) return 0;
  if (k == 0) {
    memset(op->out, 0, (size_t)(m * n) * sizeof(float));
    return 0;
  }
  if (m > INT32_MAX || k > INT32_MAX || n > INT32_MAX)
    return cpu_set_error("matmul: a dimension exceeds the BLAS integer range", op);
  dt__cpu_blas_warn_once(); /* OpenBLAS on kernels below this CPU: say so, once */
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
              (blasint)m, (blasint)n, (blasint)k, 1.0f, op->in[0], (blasint)(ta ? m : k), op->in[1],
              (blasint)(tb ? k : n), 0.0f, op->out, (blasint)n);
  return 0;
}

#define TILE 32

#define CPU_TRANSPOSE(NAME, T)                                                               \
  static void NAME(const T *restrict in, T *restrict out, int64_t rows, int64_t cols) {      \
    for (int64_t r0 = 0; r0 < rows; r0 += TILE)                                              \
      for (int64_t c0 = 0; c0 < cols; c0 += TILE) {                                          \
        const int64_t r1 = r0 + TILE < rows ? r0 + TILE : rows;                              \
        const int64_t c1 = c0 + TILE < cols ? c0 + TILE : cols;                              \
        for (int64_t r = r0; r < r1; r++)                                                    \
          for (int64_t c = c0; c < c1; c++) out[c * rows + r] = in[r * cols + c];            \
      }                                                                                      \
  }

CPU_TRANSPOSE(transpose_u8, uint8_t)
CPU_TRANSPOSE(transpose_u32, uint32_t)
CPU_TRANSPOSE(transpose_u64, uint64_t)

int cpu_transpose(const dt_op_desc *op) {
  const int64_t rows = op->u.transpose.rows, cols = op->u.transpose.cols;
  if (op->kind == DT_FLOAT)
    transpose_u32(op->in[0], op->out, rows, cols);
  else if (op->kind == DT_INT)
    transpose_u64(op->in[0], op->out, rows, cols);
  else if (op->kind == DT_BOOL)
    transpose_u8(op->in[0], op->out, rows, cols);
  else
    return cpu_set_error("transpose: unknown kind", op);
  return 0;
}

int cpu_copy_slice(const dt_op_desc *op) {
  const size_t es = op->kind == DT_FLOAT ? 4 : op->kind == DT_INT ? 8 : op->kind == DT_BOOL ? 1 : 0;
  if (es == 0) return cpu_set_error("copy_slice: unknown kind", op);
  const int64_t outer = op->u.slice.outer, inner = op->u.slice.inner, len = op->u.slice.len;
  const size_t chunk = (size_t)(len * inner) * es;
  if (chunk == 0) return 0;
  const char *in = op->in[0];
  char *out = op->out;
  for (int64_t o = 0; o < outer; o++)
    memcpy(out + (size_t)((o * op->u.slice.dst_len + op->u.slice.dst_start) * inner) * es,
           in + (size_t)((o * op->u.slice.src_len + op->u.slice.src_start) * inner) * es, chunk);
  return 0;
}
