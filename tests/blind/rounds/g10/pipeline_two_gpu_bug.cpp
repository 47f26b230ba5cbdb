// provenance: blind round g10
// Pipeline parallelism over two GPUs: the repeating blocks are split into stages, one per
// device, each stage with its own backend, weight context and buffer, and graph allocator.
// Activations move from stage to stage with ggml_backend_tensor_copy (a peer copy); the
// output head runs after the last stage. PIPE_DEBUG=1 installs an observer that prints the
// first activation of every stage.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int64_t kEmbd = 16;
constexpr int64_t kFF = 32;
constexpr int64_t kVocab = 12;
constexpr int64_t kTokens = 2;

struct Stage {
  int device = 0;
  ggml_backend_ptr backend;
  ggml_context_ptr ctx_w;
  ggml_backend_buffer_ptr buf_w;
  ggml_gallocr_ptr galloc;
  std::vector<int> layers;
};

struct Block {
  size_t stage = 0;
  ggml_tensor* norm = nullptr;
  ggml_tensor* up = nullptr;
  ggml_tensor* down = nullptr;
};

// One stage's graph for one pass: its input, its output and the context that owns them.
struct StageGraph {
  ggml_context_ptr ctx;
  ggml_cgraph* gf = nullptr;
  ggml_tensor* inp = nullptr;
  ggml_tensor* out = nullptr;
};

using Observer = std::function<void(const Stage&, const ggml_tensor*)>;

class PipelineModel {
 public:
  PipelineModel(int n_layer, int n_devices) : blocks_(n_layer) {
    layers_per_stage_ = (n_layer + n_devices - 1) / n_devices;
    for (int d = 0; d < n_devices; ++d) {
      Stage s;
      s.device = d;
      s.backend.reset(ggml_backend_cuda_init(d));
      if (!s.backend) throw std::runtime_error("cannot init CUDA" + std::to_string(d));
      ggml_init_params params = {ggml_tensor_overhead() * 64, nullptr, true};
      s.ctx_w.reset(ggml_init(params));
      s.galloc.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(s.backend.get())));
      stages_.push_back(std::move(s));
    }
    for (int il = 0; il < n_layer; ++il) {
      Block& b = blocks_[il];
      b.stage = stage_of(il);
      Stage& s = stages_[b.stage];
      s.layers.push_back(il);
      b.norm = ggml_new_tensor_1d(s.ctx_w.get(), GGML_TYPE_F32, kEmbd);
      b.up = ggml_new_tensor_2d(s.ctx_w.get(), GGML_TYPE_F32, kEmbd, kFF);
      b.down = ggml_new_tensor_2d(s.ctx_w.get(), GGML_TYPE_F32, kFF, kEmbd);
    }
    // the head goes with "the stage after the last block"
    Stage& hs = stages_[stage_of(n_layer)];
    head_norm_ = ggml_new_tensor_1d(hs.ctx_w.get(), GGML_TYPE_F32, kEmbd);
    head_ = ggml_new_tensor_2d(hs.ctx_w.get(), GGML_TYPE_F32, kEmbd, kVocab);
    for (Stage& s : stages_) {
      s.buf_w.reset(ggml_backend_alloc_ctx_tensors(s.ctx_w.get(), s.backend.get()));
      load(s);
    }
    head_galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(stages_.back().backend.get())));
  }

  void set_observer(Observer obs) { observer_ = std::move(obs); }

  std::vector<float> forward(const std::vector<float>& x) {
    std::vector<StageGraph> graphs;
    for (Stage& s : stages_) graphs.push_back(build_stage(s));
    ggml_backend_tensor_set(graphs.front().inp, x.data(), 0, x.size() * sizeof(float));
    for (size_t i = 0; i < stages_.size(); ++i) {
      ggml_backend_graph_compute(stages_[i].backend.get(), graphs[i].gf);
      if (observer_) observer_(stages_[i], graphs[i].out);
      if (i + 1 < stages_.size()) ggml_backend_tensor_copy(graphs[i].out, graphs[i + 1].inp);
    }
    return run_head(*graphs.back().out);
  }

  size_t n_stages() const { return stages_.size(); }

 private:
  size_t stage_of(int il) const { return static_cast<size_t>(il / layers_per_stage_) % stages_.size(); }

  static void load(Stage& s) {
    int salt = s.device * 31;
    for (ggml_tensor* t = ggml_get_first_tensor(s.ctx_w.get()); t; t = ggml_get_next_tensor(s.ctx_w.get(), t)) {
      std::vector<float> w(ggml_nelements(t));
      for (size_t i = 0; i < w.size(); ++i) w[i] = ggml_n_dims(t) == 1 ? 1.0f : 0.1f * std::cos(0.3f * i + salt);
      ggml_backend_tensor_set(t, w.data(), 0, ggml_nbytes(t));
      ++salt;
    }
  }

  StageGraph build_stage(Stage& s) {
    StageGraph g;
    ggml_init_params params = {ggml_tensor_overhead() * 128 + ggml_graph_overhead(), nullptr, true};
    g.ctx.reset(ggml_init(params));
    ggml_context* ctx = g.ctx.get();
    g.inp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kEmbd, kTokens);
    ggml_set_input(g.inp);
    ggml_tensor* x = g.inp;
    for (int il : s.layers) {
      const Block& b = blocks_[il];
      ggml_tensor* cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), b.norm);
      x = ggml_add(ctx, x, ggml_mul_mat(ctx, b.down, ggml_gelu(ctx, ggml_mul_mat(ctx, b.up, cur))));
    }
    g.out = ggml_cont(ctx, x);
    ggml_set_output(g.out);
    g.gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(g.gf, g.out);
    ggml_gallocr_alloc_graph(s.galloc.get(), g.gf);
    return g;
  }

  std::vector<float> run_head(const ggml_tensor& last) {
    Stage& s = stages_.back();
    ggml_init_params params = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(params));
    ggml_tensor* inp = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, kTokens);
    ggml_set_input(inp);
    ggml_tensor* logits = ggml_mul_mat(ctx.get(), head_, ggml_mul(ctx.get(), ggml_rms_norm(ctx.get(), inp, 1e-5f), head_norm_));
    ggml_set_output(logits);
    ggml_cgraph* gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, logits);
    ggml_gallocr_alloc_graph(head_galloc_.get(), gf);
    ggml_backend_tensor_copy(&last, inp);
    ggml_backend_graph_compute(s.backend.get(), gf); // expect-error: ggml-backend-mismatch
    std::vector<float> out(ggml_nelements(logits));
    ggml_backend_tensor_get(logits, out.data(), 0, ggml_nbytes(logits));
    return out;
  }

  std::vector<Stage> stages_;
  std::vector<Block> blocks_;
  int layers_per_stage_ = 1;
  ggml_tensor* head_norm_ = nullptr;
  ggml_tensor* head_ = nullptr;
  ggml_gallocr_ptr head_galloc_;
  Observer observer_;
};

}  // namespace

int main() {
  const int n_devices = ggml_backend_cuda_get_device_count();
  if (n_devices < 2) {
    std::fprintf(stderr, "pipeline needs two GPUs\n");
    return 1;
  }
  PipelineModel model(4, 2);
  const char* dbg = std::getenv("PIPE_DEBUG");
  if (dbg && std::string(dbg) == "1") {
    model.set_observer([](const Stage& s, const ggml_tensor* out) {
      std::printf("  stage %d (%zu layers): out[0] = %.4f\n", s.device, s.layers.size(), static_cast<double>(ggml_get_f32_1d(out, 0))); // expect-warning: ggml-host-access
    });
  }

  std::vector<float> x(kEmbd * kTokens);
  for (int step = 0; step < 3; ++step) {
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.2f * (i + 5 * step));
    std::vector<float> logits = model.forward(x);
    size_t best = 0;
    for (size_t v = 1; v < static_cast<size_t>(kVocab); ++v)
      if (logits[v] > logits[best]) best = v;
    std::printf("step %d over %zu stages: argmax %zu (%.4f)\n", step, model.n_stages(), best, static_cast<double>(logits[best]));
  }
  return 0;
}
