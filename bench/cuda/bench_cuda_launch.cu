/* bench/cuda/bench_cuda_launch.cu — what one operation on a one-element tensor costs on the cuda
 * backend: a bare empty kernel launch (the floor), the backend's run of a one-element add
 * (queued back to back, per operation), and the same with a copy of the result back to the host
 * after each (a synchronous round trip), in microseconds. */
#include <chrono>

#include "bench_cuda_util.h"

__global__ static void empty_kernel() {}

template <typename F>
static double per_call_us(F f, int n) {
  for (int i = 0; i < 100; ++i) f(); /* warm-up */
  BC_CHECK(cudaDeviceSynchronize());
  double best = 1e30;
  for (int trial = 0; trial < 5; ++trial) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) f();
    BC_CHECK(cudaDeviceSynchronize());
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
    best = us < best ? us : best;
  }
  return best;
}

int main() {
  if (!bc_banner("bench_cuda_launch")) return 0;
  const dt_backend_iface *be = dt_cuda_backend();
  float *a = (float *)bc_alloc(4), *b = (float *)bc_alloc(4), *c = (float *)bc_alloc(4);
  const float one = 1.0f, two = 2.0f;
  be->copy_in(0, a, &one, 4);
  be->copy_in(0, b, &two, 4);
  dt_op_desc op;
  memset(&op, 0, sizeof op);
  op.op = DT_OP_ADD;
  op.kind = op.out_kind = DT_FLOAT;
  op.in[0] = a;
  op.in[1] = b;
  op.out = c;
  op.n = 1;
  op.u.bcast.contiguous = 1;
  const int n = 20000;
  const double bare = per_call_us([] { empty_kernel<<<1, 1>>>(); }, n);
  const double run = per_call_us([&] { bc_run(op); }, n);
  float out = 0;
  const double trip = per_call_us([&] {
    bc_run(op);
    be->copy_out(0, &out, c, 4);
  }, n / 10);
  printf("\n%-44s %8.2f us\n", "empty kernel launch <<<1,1>>>", bare);
  printf("%-44s %8.2f us  (%.2fx the bare launch)\n", "backend run: one-element add, queued", run,
         run / bare);
  printf("%-44s %8.2f us\n", "backend run + copy of the result to the host", trip);
  if (out != 3.0f) {
    printf("WRONG RESULT: %g\n", out);
    return 1;
  }
  return 0;
}
