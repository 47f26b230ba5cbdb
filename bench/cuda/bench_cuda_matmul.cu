/* bench/cuda/bench_cuda_matmul.cu — the cuda backend's tiled matmul kernel (FP32, through
 * dt_cuda_backend()->run) against cuBLAS SGEMM on the same buffers, at 4096^3 and 8192^3, in
 * TFLOP/s and as a ratio (target: past 80% of cuBLAS FP32). cuBLAS in TF32 tensor-op mode is
 * printed for reference. Results are compared with cuBLAS's (relative Frobenius error). */
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
  printf("\n%-6s %14s %14s %14s %10s %12s\n", "n", "dt TFLOP/s", "cuBLAS FP32", "cuBLAS TF32",
         "dt/FP32", "rel. error");
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
    const double ours = bc_time_ms([&] { bc_run(op); }, 2, reps);
    const float one = 1.0f, zero = 0.0f;
    /* row-major C = A B is column-major C^T = B^T A^T */
    auto sgemm = [&] {
      CB_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, B, (int)n, A,
                           (int)n, &zero, R, (int)n));
    };
    CB_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    const double fp32 = bc_time_ms(sgemm, 2, reps);
    const double err = rel_error(C, R, elems); /* against the FP32 result */
    CB_CHECK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    const double tf32 = bc_time_ms(sgemm, 2, reps);
    CB_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    const double flop = 2.0 * n * n * n;
    const bool ok = err < 1e-5;
    failures += !ok;
    printf("%-6lld %14.2f %14.2f %14.2f %9.1f%% %12.2e %s\n", n, flop / (ours * 1e9),
           flop / (fp32 * 1e9), flop / (tf32 * 1e9), 100.0 * fp32 / ours, err,
           ok ? "" : "WRONG RESULTS");
    const dt_backend_iface *be = dt_cuda_backend();
    be->free(0, A);
    be->free(0, B);
    be->free(0, C);
    be->free(0, R);
  }
  cublasDestroy(h);
  return failures ? 1 : 0;
}
