/* runtime/kernels/ops.cuh — every kernel of the runtime's operations, instantiated from the
 * generic kernels (elementwise, reduce, layout, matmul) with the arithmetic of each operation
 * and element type. The semantics follow dt/backend.h: int arithmetic wraps (computed
 * unsigned), int division truncates and gives 0 for a zero divisor, int scalar ops are computed
 * in double and truncated toward zero (saturating outside the int64 range, NaN gives 0). */
#ifndef DT_KERNELS_OPS_CUH
#define DT_KERNELS_OPS_CUH

#if !defined(__CUDACC__)
#include <math.h>
#endif

#include "elementwise.cuh"
#include "layout.cuh"
#include "matmul.cuh"
#include "reduce.cuh"

/* ---- int64 helpers ---- */
DEVICE_FN int64_t dt_k_iadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
DEVICE_FN int64_t dt_k_isub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
DEVICE_FN int64_t dt_k_imul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
DEVICE_FN int64_t dt_k_idiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return (int64_t)(0 - (uint64_t)a); /* INT64_MIN / -1 wraps */
  return a / b;
}
/* (int64_t)d, truncated toward zero; saturates outside the int64 range; NaN gives 0. Also used
   on the host (fill values). */
HOST_DEVICE_FN int64_t dt_k_d2i(double d) {
  if (!(d == d)) return 0;
  if (d >= 9223372036854775807.0) return INT64_MAX;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)d;
}

/* ---- fill (by element size) ---- */
DT_K_FILL_KERNEL(dt_k_fill_u8, uint8_t)
DT_K_FILL_KERNEL(dt_k_fill_u32, uint32_t)
DT_K_FILL_KERNEL(dt_k_fill_u64, uint64_t)

/* ---- contiguous binary maps ---- */
DT_K_MAP_KERNEL(dt_k_add_f32, 2, float, float, float, x0 + x1)
DT_K_MAP_KERNEL(dt_k_sub_f32, 2, float, float, float, x0 - x1)
DT_K_MAP_KERNEL(dt_k_mul_f32, 2, float, float, float, x0 * x1)
DT_K_MAP_KERNEL(dt_k_div_f32, 2, float, float, float, x0 / x1)
DT_K_MAP_KERNEL(dt_k_greater_f32, 2, float, float, uint8_t, x0 > x1 ? 1 : 0)
DT_K_MAP_KERNEL(dt_k_add_i64, 2, int64_t, int64_t, int64_t, dt_k_iadd(x0, x1))
DT_K_MAP_KERNEL(dt_k_sub_i64, 2, int64_t, int64_t, int64_t, dt_k_isub(x0, x1))
DT_K_MAP_KERNEL(dt_k_mul_i64, 2, int64_t, int64_t, int64_t, dt_k_imul(x0, x1))
DT_K_MAP_KERNEL(dt_k_div_i64, 2, int64_t, int64_t, int64_t, dt_k_idiv(x0, x1))
DT_K_MAP_KERNEL(dt_k_greater_i64, 2, int64_t, int64_t, uint8_t, x0 > x1 ? 1 : 0)

/* ---- unary and scalar maps ---- */
DT_K_MAP_KERNEL(dt_k_neg_f32, 1, float, float, float, -x0)
DT_K_MAP_KERNEL(dt_k_exp_f32, 1, float, float, float, expf(x0))
DT_K_MAP_KERNEL(dt_k_log_f32, 1, float, float, float, logf(x0))
DT_K_MAP_KERNEL(dt_k_relu_f32, 1, float, float, float, x0 > 0.0f ? x0 : 0.0f)
DT_K_MAP_KERNEL(dt_k_sigmoid_f32, 1, float, float, float, 1.0f / (1.0f + expf(-x0)))
DT_K_MAP_KERNEL(dt_k_tanh_f32, 1, float, float, float, tanhf(x0))
DT_K_MAP_KERNEL(dt_k_neg_i64, 1, int64_t, int64_t, int64_t, (int64_t)(0 - (uint64_t)x0))
DT_K_MAP_KERNEL(dt_k_relu_i64, 1, int64_t, int64_t, int64_t, x0 > 0 ? x0 : 0)
DT_K_MAP_KERNEL(dt_k_add_scalar_f32, 1, float, float, float, x0 + s)
DT_K_MAP_KERNEL(dt_k_mul_scalar_f32, 1, float, float, float, x0 * s)
DT_K_MAP_KERNEL(dt_k_add_scalar_i64, 1, int64_t, int64_t, int64_t, dt_k_d2i((double)x0 + (double)s))
DT_K_MAP_KERNEL(dt_k_mul_scalar_i64, 1, int64_t, int64_t, int64_t, dt_k_d2i((double)x0 * (double)s))

/* ---- activation gradients (x0 the activation's input or output, x1 the gradient) ---- */
DT_K_MAP_KERNEL(dt_k_relu_grad_f32, 2, float, float, float, x0 > 0.0f ? x1 : 0.0f)
DT_K_MAP_KERNEL(dt_k_sigmoid_grad_f32, 2, float, float, float, x1 * x0 * (1.0f - x0))
DT_K_MAP_KERNEL(dt_k_tanh_grad_f32, 2, float, float, float, x1 * (1.0f - x0 * x0))

/* ---- broadcast maps ---- */
DT_K_BCAST_KERNELS(dt_k_badd_f32, 2, float, float, float, float, x0 + x1)
DT_K_BCAST_KERNELS(dt_k_bsub_f32, 2, float, float, float, float, x0 - x1)
DT_K_BCAST_KERNELS(dt_k_bmul_f32, 2, float, float, float, float, x0 * x1)
DT_K_BCAST_KERNELS(dt_k_bdiv_f32, 2, float, float, float, float, x0 / x1)
DT_K_BCAST_KERNELS(dt_k_bgreater_f32, 2, float, float, float, uint8_t, x0 > x1 ? 1 : 0)
DT_K_BCAST_KERNELS(dt_k_badd_i64, 2, int64_t, int64_t, int64_t, int64_t, dt_k_iadd(x0, x1))
DT_K_BCAST_KERNELS(dt_k_bsub_i64, 2, int64_t, int64_t, int64_t, int64_t, dt_k_isub(x0, x1))
DT_K_BCAST_KERNELS(dt_k_bmul_i64, 2, int64_t, int64_t, int64_t, int64_t, dt_k_imul(x0, x1))
DT_K_BCAST_KERNELS(dt_k_bdiv_i64, 2, int64_t, int64_t, int64_t, int64_t, dt_k_idiv(x0, x1))
DT_K_BCAST_KERNELS(dt_k_bgreater_i64, 2, int64_t, int64_t, int64_t, uint8_t, x0 > x1 ? 1 : 0)
/* where(c, a, b) moves bits: by element size */
DT_K_BCAST_KERNELS(dt_k_where_u8, 3, uint8_t, uint8_t, uint8_t, uint8_t, x0 ? x1 : x2)
DT_K_BCAST_KERNELS(dt_k_where_u32, 3, uint8_t, uint32_t, uint32_t, uint32_t, x0 ? x1 : x2)
DT_K_BCAST_KERNELS(dt_k_where_u64, 3, uint8_t, uint64_t, uint64_t, uint64_t, x0 ? x1 : x2)

/* ---- reductions ---- */
#define DT_K_LOAD_X(k) x[k]
DEVICE_FN float dt_k_sqdiff(float a, float b) { return (a - b) * (a - b); }
#define DT_K_LOAD_SQDIFF(k) dt_k_sqdiff(x[k], ((const float *)p.in2)[row * p.len + (k)])
#define DT_K_FINISH_F32(s, scale) ((scale) * (s))
#define DT_K_FINISH_I64(s, scale) ((int64_t)(s))
DT_K_REDUCE_ROWS_KERNEL(dt_k_sum_rows_f32, float, float, float, DT_K_LOAD_X, DT_K_FINISH_F32)
DT_K_REDUCE_ROWS_KERNEL(dt_k_sum_rows_i64, int64_t, uint64_t, int64_t, DT_K_LOAD_X,
                        DT_K_FINISH_I64)
DT_K_REDUCE_ROWS_KERNEL(dt_k_mse_rows_f32, float, float, float, DT_K_LOAD_SQDIFF,
                        DT_K_FINISH_F32)
DT_K_REDUCE_COLS_KERNEL(dt_k_sum_cols_f32, float, float, float, DT_K_FINISH_F32)
DT_K_REDUCE_COLS_KERNEL(dt_k_sum_cols_i64, int64_t, uint64_t, int64_t, DT_K_FINISH_I64)

/* ---- layout ---- */
DT_K_TRANSPOSE_KERNEL(dt_k_transpose_u8, uint8_t)
DT_K_TRANSPOSE_KERNEL(dt_k_transpose_u32, uint32_t)
DT_K_TRANSPOSE_KERNEL(dt_k_transpose_u64, uint64_t)
DT_K_RUNS_KERNELS(dt_k_runs_u8, uint8_t)
DT_K_RUNS_KERNELS(dt_k_runs_u32, uint32_t)
DT_K_RUNS_KERNELS(dt_k_runs_u64, uint64_t)

#endif /* DT_KERNELS_OPS_CUH */
