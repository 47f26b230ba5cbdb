/* bench/cuda/bench_cuda_matmul.cu — the cuda backend's float matrix product (through
 * dt_cuda_backend()->run: cuBLAS where it loads, issue 25) against cuBLAS SGEMM called directly
 * on the same buffers, at 4096^3 and 8192^3, in TFLOP/s and as a ratio (target: 95% of cuBLAS
 * FP32 or more): plain operands, a transposed right operand (the backward product G x B^T, read
 * through the transpose flag), and DT_MATMUL_FAST against cuBLAS TF32. The backend's own tiled
 * kernel (dt_cuda_use_cublas(0)) is measured too. Results are compared with cuBLAS FP32's
 * (relative Frobenius error; TF32 within 1e-2). */
#include <cublas_v2.h>

#include <cmath>

#include "bench_cuda_util.h"

#define CB_CHECK(call)                                                           \
  do {                                                                           \
    cublasStatus_t s_ = (call);                                                  \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                           \
      fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

/* ||x - y|| / ||y|| over n floats on the device (copied to the host, summed in double). */
static double rel_error(const float *x, const float *y, size_t n) {
  std::vector<float> hx(n), hy(n);
  BC_CHECK(cudaMemcpy(hx.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  BC_CHECK(cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = (double)hx[i] - hy[i];
    num += d * d;
    den += (double)hy[i] * hy[i];
  }
  return std::sqrt(num / (den > 0 ? den : 1));
}

int main() {
  if (!bc_banner("bench_cuda_matmul")) return 0;
  cublasHandle_t h;
  CB_CHECK(cublasCreate(&h));
  int failures = 0;
  printf("\n%-6s %-22s %12s %12s %9s %11s\n", "n", "product", "dt TFLOP/s", "cuBLAS", "dt/cuBLAS",
         "rel. error");
  for (long long n : {4096ll, 8192ll}) {
    const size_t elems = (size_t)(n * n), bytes = elems * sizeof(float);
    float *A = (float *)bc_alloc(bytes), *B = (float *)bc_alloc(bytes);
    float *C = (float *)bc_alloc(bytes), *R = (float *)bc_alloc(bytes);
    bc_fill(A, (long long)elems, 3);
    bc_fill(B, (long long)elems, 4);
    BC_CHECK(cudaMemset(C, 0xff, bytes)); /* poison */
    dt_op_desc op;
    memset(&op, 0, sizeof op);
    op.op = DT_OP_MATMUL;
    op.kind = op.out_kind = DT_FLOAT;
    op.in[0] = A;
    op.in[1] = B;
    op.out = C;
    op.n = n * n;
    op.u.matmul.m = op.u.matmul.k = op.u.matmul.n = n;
    const int reps = n > 4096 ? 5 : 10;
    const float one = 1.0f, zero = 0.0f;
    const double flop = 2.0 * n * n * n;
    /* row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T */
    auto sgemm = [&](cublasOperation_t tb) {
      CB_CHECK(cublasSgemm(h, tb, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, B, (int)n, A, (int)n,
                           &zero, R, (int)n));
    };
    struct variant {
      const char *name;
      int use_cublas, trans_b, fast;
    } variants[] = {{"A x B", 1, 0, 0},
                    {"A x B^T (flag)", 1, 1, 0},
                    {"A x B, TF32 (FAST)", 1, 0, 1},
                    {"A x B, tiled kernel", 0, 0, 0}};
    for (const variant &v : variants) {
      dt_cuda_use_cublas(v.use_cublas);
      op.u.matmul.trans_b = v.trans_b;
      op.u.matmul.precision = v.fast ? DT_MATMUL_FAST : DT_MATMUL_EXACT;
      BC_CHECK(cudaMemset(C, 0xff, bytes)); /* poison */
      const double ours = bc_time_ms([&] { bc_run(op); }, 2, reps);
      const cublasOperation_t tb = v.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
      CB_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
      sgemm(tb);
      BC_CHECK(cudaDeviceSynchronize());
      const double err = rel_error(C, R, elems); /* against the FP32 result */
      CB_CHECK(cublasSetMathMode(h, v.fast ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
      const double base = bc_time_ms([&] { sgemm(tb); }, 2, reps);
      CB_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
      const bool ok = err < (v.fast ? 1e-2 : 1e-5);
      failures += !ok;
      printf("%-6lld %-22s %12.2f %12.2f %8.1f%% %11.2e %s\n", n, v.name, flop / (ours * 1e9),
             flop / (base * 1e9), 100.0 * base / ours, err, ok ? "" : "WRONG RESULTS");
    }
    dt_cuda_use_cublas(1);
    const dt_backend_iface *be = dt_cuda_backend();
    be->free(0, A);
    be->free(0, B);
    be->free(0, C);
    be->free(0, R);
  }
  cublasDestroy(h);
  return failures ? 1 : 0;
}
