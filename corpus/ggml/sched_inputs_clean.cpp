// corpus/ggml/sched_inputs_clean.cpp — the fix of sched_inputs_bug.cpp: the scheduler reserves
// its buffers for the graph, allocates the graph (ggml_backend_sched_alloc_graph places every
// tensor of it on one of its backends), and only then are the input set, the graph computed
// and the output read back; a reset before the next batch, then the same again.
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

struct runner {
  ggml_backend_t backends[2] = {nullptr, nullptr};
  int n_backends = 0;
  ggml_backend_sched_t sched = nullptr;
};

static void runner_init(runner &r) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (gpu) r.backends[r.n_backends++] = gpu;
  r.backends[r.n_backends++] = ggml_backend_cpu_init();
  r.sched = ggml_backend_sched_new(r.backends, nullptr, r.n_backends, GGML_DEFAULT_GRAPH_SIZE,
                                   false, true);
}

static float run_batch(runner &r, float value) {
  ggml_init_params params = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true};
  ggml_context *ctx = ggml_init(params);
  ggml_tensor *x = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 8);
  ggml_set_input(x);
  ggml_tensor *y = ggml_scale(ctx, ggml_relu(ctx, x), 2.0f);
  ggml_set_output(y);
  ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, y);
  ggml_backend_sched_reset(r.sched);
  if (!ggml_backend_sched_alloc_graph(r.sched, gf)) {
    ggml_free(ctx);
    return -1.0f;
  }
  std::vector<float> in(8, value), out(8);
  ggml_backend_tensor_set(x, in.data(), 0, ggml_nbytes(x));
  ggml_backend_sched_graph_compute(r.sched, gf);
  ggml_backend_tensor_get(y, out.data(), 0, ggml_nbytes(y));
  ggml_free(ctx);
  return out[0];
}

int main() {
  runner r;
  runner_init(r);
  float a = run_batch(r, 1.0f);
  float b = run_batch(r, 3.0f);
  ggml_backend_sched_free(r.sched);
  for (int i = 0; i < r.n_backends; i++) ggml_backend_free(r.backends[i]);
  return a == 2.0f && b == 6.0f ? 0 : 1;
}
