// corpus/ggml/graph_lookup_logits_bug.cpp — a small decoder step: the graph names its input and
// its output, the caller finds both again with ggml_graph_get_tensor after ggml_gallocr has
// placed the graph on the GPU. Bug: the greedy sampler reads the logits with ggml_get_f32_1d,
// a host accessor, on a tensor in device memory (every tensor of the graph is on the GPU).
#include <cstdio>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

namespace {

constexpr int kVocab = 8;

struct Step {
  ggml_context *ctx = nullptr;
  ggml_cgraph *gf = nullptr;
};

void build_step(Step &s) {
  ggml_init_params params = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
  s.ctx = ggml_init(params);
  s.gf = ggml_new_graph(s.ctx);
  ggml_tensor *x = ggml_new_tensor_1d(s.ctx, GGML_TYPE_F32, kVocab);
  ggml_set_name(x, "input");
  ggml_set_input(x);
  ggml_tensor *logits = ggml_scale(s.ctx, ggml_relu(s.ctx, x), 2.0f);
  ggml_set_name(logits, "logits");
  ggml_set_output(logits);
  ggml_build_forward_expand(s.gf, logits);
}

int greedy(const ggml_tensor *logits) {
  int best = 0;
  float best_v = -1e30f;
  for (int i = 0; i < kVocab; i++) {
    float v = ggml_get_f32_1d(logits, i); // expect-error: ggml-host-access
    if (v > best_v) {
      best_v = v;
      best = i;
    }
  }
  return best;
}

}  // namespace

int main() {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  Step s;
  build_step(s);
  ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu));
  if (!ggml_gallocr_alloc_graph(ga, s.gf)) return 1;
  std::vector<float> in(kVocab);
  for (int i = 0; i < kVocab; i++) in[i] = static_cast<float>(i % 3);
  ggml_backend_tensor_set(ggml_graph_get_tensor(s.gf, "input"), in.data(), 0, in.size() * sizeof(float));
  ggml_backend_graph_compute(gpu, s.gf);
  std::printf("token %d\n", greedy(ggml_graph_get_tensor(s.gf, "logits")));
  ggml_gallocr_free(ga);
  ggml_free(s.ctx);
  ggml_backend_free(gpu);
  return 0;
}
