// corpus/ggml/sched_inputs_bug.cpp — a forward pass run through the backend scheduler over
// the GPU and the CPU. Bug: the input is uploaded before ggml_backend_sched_alloc_graph: the
// graph's own tensors (the input included) get their buffer only there, so
// ggml_backend_tensor_set aborts with "tensor buffer not set".
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

int main() {
  runner r;
  runner_init(r);
  ggml_init_params params = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true};
  ggml_context *ctx = ggml_init(params);
  ggml_tensor *x = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 8);
  ggml_set_input(x);
  ggml_tensor *y = ggml_scale(ctx, ggml_relu(ctx, x), 2.0f);
  ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, y);
  std::vector<float> in(8, 1.0f);
  ggml_backend_tensor_set(x, in.data(), 0, ggml_nbytes(x)); // expect-error: ggml-buffer-not-set
  ggml_backend_sched_alloc_graph(r.sched, gf);
  ggml_backend_sched_graph_compute(r.sched, gf);
  ggml_backend_sched_free(r.sched);
  ggml_free(ctx);
  for (int i = 0; i < r.n_backends; i++) ggml_backend_free(r.backends[i]);
  return 0;
}
