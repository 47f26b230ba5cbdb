/* bench/cuda/bench_cuda_elementwise.cu — the cuda backend's element-wise kernels (add, mul) and
 * full reduction (sum) on 256M floats against a device-to-device cudaMemcpy of the same data, in
 * bytes moved per second (target: add and mul at 90% of the copy or better). The kernels run
 * through the backend's interface (dt_cuda_backend()->run), exactly as libdt launches them.
 * Each result is checked: add and mul element by element on the whole output, sum against a
 * double-precision sum on the host. */
#include <cmath>

#include "bench_cuda_util.h"

static dt_op_desc binary(dt_op kind, const float *a, const float *b, float *c, long long n) {
  dt_op_desc op;
  memset(&op, 0, sizeof op);
  op.op = kind;
  op.kind = op.out_kind = DT_FLOAT;
  op.in[0] = a;
  op.in[1] = b;
  op.out = c;
  op.n = n;
  op.u.bcast.rank = 1;
  op.u.bcast.shape[0] = n;
  op.u.bcast.strides[0][0] = op.u.bcast.strides[1][0] = 1;
  op.u.bcast.contiguous = 1;
  return op;
}

int main() {
  if (!bc_banner("bench_cuda_elementwise")) return 0;
  const long long n = 256ll << 20;
  const size_t bytes = (size_t)n * sizeof(float);
  float *a = (float *)bc_alloc(bytes), *b = (float *)bc_alloc(bytes), *c = (float *)bc_alloc(bytes);
  float *s = (float *)bc_alloc(sizeof(float));
  bc_fill(a, n, 1);
  bc_fill(b, n, 2);
  BC_CHECK(cudaDeviceSynchronize());

  const double copy_ms = bc_time_ms([&] { BC_CHECK(cudaMemcpyAsync(c, a, bytes, cudaMemcpyDeviceToDevice, 0)); });
  const double copy_bw = 2.0 * bytes / (copy_ms * 1e-3);
  printf("\n%-36s %9.3f ms %8.3f TB/s (bytes read + written)\n", "cudaMemcpy device to device", copy_ms,
         copy_bw / 1e12);

  std::vector<float> ha(n), hb(n), hc(n);
  BC_CHECK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
  BC_CHECK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
  int failures = 0;
  const struct {
    const char *name;
    dt_op op;
  } ops[] = {{"add (dt kernel, 256M floats)", DT_OP_ADD}, {"mul (dt kernel, 256M floats)", DT_OP_MUL}};
  for (const auto &o : ops) {
    dt_op_desc op = binary(o.op, a, b, c, n);
    BC_CHECK(cudaMemset(c, 0xff, bytes)); /* poison: every element must be written */
    const double ms = bc_time_ms([&] { bc_run(op); });
    const double bw = 3.0 * bytes / (ms * 1e-3);
    BC_CHECK(cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (long long i = 0; i < n; ++i) {
      const float want = o.op == DT_OP_ADD ? ha[i] + hb[i] : ha[i] * hb[i];
      bad += hc[i] != want;
    }
    failures += bad != 0;
    printf("%-36s %9.3f ms %8.3f TB/s = %5.1f%% of the copy (target 90%%)  %s\n", o.name, ms,
           bw / 1e12, 100.0 * bw / copy_bw, bad ? "WRONG RESULTS" : "checked");
  }

  dt_op_desc sum;
  memset(&sum, 0, sizeof sum);
  sum.op = DT_OP_SUM_DIM;
  sum.kind = sum.out_kind = DT_FLOAT;
  sum.in[0] = a;
  sum.out = s;
  sum.n = 1;
  sum.u.reduce.outer = 1;
  sum.u.reduce.len = n;
  sum.u.reduce.inner = 1;
  sum.u.reduce.scale = 1.0f;
  const double sum_ms = bc_time_ms([&] { bc_run(sum); });
  const double sum_bw = 1.0 * bytes / (sum_ms * 1e-3);
  float got = 0;
  BC_CHECK(cudaMemcpy(&got, s, sizeof got, cudaMemcpyDeviceToHost));
  double want = 0, mag = 0;
  for (long long i = 0; i < n; ++i) want += ha[i], mag += std::fabs(ha[i]);
  const bool sum_ok = std::fabs(got - want) <= 1e-6 * mag + 1e-3;
  failures += !sum_ok;
  printf("%-36s %9.3f ms %8.3f TB/s = %5.1f%% of the copy (bytes read)  %s (%.6g vs %.6g)\n",
         "sum (dt kernel, 256M floats)", sum_ms, sum_bw / 1e12, 100.0 * sum_bw / copy_bw,
         sum_ok ? "checked" : "WRONG RESULT", got, want);
  return failures ? 1 : 0;
}
