// provenance: blind round g9
// llama.cpp-style LoRA adapter on top of a partially offloaded base model: the attention
// projections live on CUDA0, the output head stays in CPU memory. Adapter tensors are
// created in one context per buffer type of the base tensor they patch (ctx_for_buft), the
// contexts are allocated in a loop over that map and the adapter is applied through the
// backend scheduler. The allocation loop still carries a shortcut from the mmap loader.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kEmbd = 32;
constexpr int kVocab = 40;
constexpr int kLayers = 2;
constexpr int kRank = 4;

std::vector<float> pseudo_random(size_t n, uint32_t seed, float amp) {
  std::vector<float> v(n);
  for (float &x : v) {
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    x = (static_cast<float>(seed % 10000) / 10000.0f - 0.5f) * amp;
  }
  return v;
}

void upload(ggml_tensor *t, const std::vector<float> &v) {
  ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t)); // expect-error: ggml-buffer-not-set
}

class BaseModel {
 public:
  BaseModel(ggml_backend_t gpu, ggml_backend_t cpu) {
    ggml_init_params p = {ggml_tensor_overhead() * 16, nullptr, true};
    ctx_gpu_.reset(ggml_init(p));
    ctx_cpu_.reset(ggml_init(p));
    for (int il = 0; il < kLayers; il++) {
      ggml_tensor *w = ggml_new_tensor_2d(ctx_gpu_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
      ggml_format_name(w, "blk.%d.attn_q.weight", il);
      wq.push_back(w);
    }
    output = ggml_new_tensor_2d(ctx_cpu_.get(), GGML_TYPE_F32, kEmbd, kVocab);
    ggml_set_name(output, "output.weight");
    buf_gpu_.reset(ggml_backend_alloc_ctx_tensors(ctx_gpu_.get(), gpu));
    buf_cpu_.reset(ggml_backend_alloc_ctx_tensors(ctx_cpu_.get(), cpu));
    uint32_t seed = 11;
    for (ggml_tensor *w : wq) upload(w, pseudo_random(ggml_nelements(w), seed++, 0.2f));
    upload(output, pseudo_random(ggml_nelements(output), seed++, 0.2f));
  }

  std::vector<ggml_tensor *> wq;
  ggml_tensor *output = nullptr;

 private:
  ggml_context_ptr ctx_gpu_, ctx_cpu_;
  ggml_backend_buffer_ptr buf_gpu_, buf_cpu_;
};

struct LoraWeight {
  ggml_tensor *a = nullptr;  // [n_in, rank]
  ggml_tensor *b = nullptr;  // [rank, n_out]
};

class LoraAdapter {
 public:
  LoraAdapter(float alpha, int rank) : alpha_(alpha), rank_(rank) {}

  void add_target(const ggml_tensor *base) {
    ggml_context *ctx = ctx_for_buft(ggml_backend_buffer_get_type(base->buffer));
    LoraWeight w;
    w.a = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, base->ne[0], rank_);
    w.b = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, rank_, base->ne[1]);
    ggml_format_name(w.a, "%s.lora_a", base->name);
    ggml_format_name(w.b, "%s.lora_b", base->name);
    weights_[base->name] = w;
  }

  void allocate() {
    for (auto &entry : ctx_map_) {
      // host tensors are served from the mapped file
      if (ggml_backend_buft_is_host(entry.first)) continue;
      ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors_from_buft(entry.second.get(), entry.first);
      if (!buf) throw_oom(entry.first);
      ggml_backend_buffer_clear(buf, 0);
      bufs_.emplace_back(buf);
    }
  }

  void load(uint32_t seed) {
    for (auto &kv : weights_) {
      upload(kv.second.a, pseudo_random(ggml_nelements(kv.second.a), seed++, 0.1f));
      upload(kv.second.b, pseudo_random(ggml_nelements(kv.second.b), seed++, 0.1f));
    }
  }

  const LoraWeight *find(const char *name) const {
    auto it = weights_.find(name);
    return it == weights_.end() ? nullptr : &it->second;
  }

  float scale() const { return alpha_ / static_cast<float>(rank_); }

 private:
  ggml_context *ctx_for_buft(ggml_backend_buffer_type_t buft) {
    auto it = ctx_map_.find(buft);
    if (it != ctx_map_.end()) return it->second.get();
    ggml_init_params p = {ggml_tensor_overhead() * 32, nullptr, true};
    ggml_context *ctx = ggml_init(p);
    ctx_map_.emplace(buft, ggml_context_ptr(ctx));
    return ctx;
  }

  [[noreturn]] static void throw_oom(ggml_backend_buffer_type_t buft) {
    std::fprintf(stderr, "lora: failed to allocate %s buffer\n", ggml_backend_buft_name(buft));
    std::exit(1);
  }

  float alpha_;
  int rank_;
  std::map<ggml_backend_buffer_type_t, ggml_context_ptr> ctx_map_;
  std::vector<ggml_backend_buffer_ptr> bufs_;
  std::map<std::string, LoraWeight> weights_;
};

// W x + scale * B (A x), or W x where the adapter does not patch W
ggml_tensor *lora_mm(ggml_context *ctx, const LoraAdapter *lora, ggml_tensor *w, ggml_tensor *x) {
  ggml_tensor *res = ggml_mul_mat(ctx, w, x);
  const LoraWeight *lw = lora ? lora->find(w->name) : nullptr;
  if (!lw) return res;
  ggml_tensor *ab = ggml_mul_mat(ctx, lw->b, ggml_mul_mat(ctx, lw->a, x));
  return ggml_add(ctx, res, ggml_scale(ctx, ab, lora->scale()));
}

class Runner {
 public:
  Runner(ggml_backend_t gpu, ggml_backend_t cpu) {
    ggml_backend_t backends[2] = {gpu, cpu};
    sched_.reset(ggml_backend_sched_new(backends, nullptr, 2, GGML_DEFAULT_GRAPH_SIZE, false, true));
  }

  std::vector<float> logits(const BaseModel &m, const LoraAdapter *lora, const std::vector<float> &x_host, int n_tokens) {
    ggml_init_params p = {ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(p));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *x = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, n_tokens);
    ggml_set_input(x);
    ggml_tensor *cur = x;
    for (ggml_tensor *w : m.wq) cur = ggml_add(ctx.get(), cur, ggml_silu(ctx.get(), lora_mm(ctx.get(), lora, w, cur)));
    ggml_tensor *out = lora_mm(ctx.get(), lora, m.output, cur);
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);

    ggml_backend_sched_reset(sched_.get());
    if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) return {};
    ggml_backend_tensor_set(x, x_host.data(), 0, ggml_nbytes(x));
    if (ggml_backend_sched_graph_compute(sched_.get(), gf) != GGML_STATUS_SUCCESS) return {};
    std::vector<float> res(ggml_nelements(out));
    ggml_backend_tensor_get(out, res.data(), 0, ggml_nbytes(out));
    return res;
  }

 private:
  ggml_backend_sched_ptr sched_;
};

int argmax(const float *v, int n) {
  int best = 0;
  for (int i = 1; i < n; i++)
    if (v[i] > v[best]) best = i;
  return best;
}

}  // namespace

int main() {
  ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
  ggml_backend_ptr cpu(ggml_backend_cpu_init());
  if (!gpu || !cpu) return 1;

  BaseModel model(gpu.get(), cpu.get());
  auto adapter = std::make_unique<LoraAdapter>(8.0f, kRank);
  for (ggml_tensor *w : model.wq) adapter->add_target(w);
  adapter->add_target(model.output);
  adapter->allocate();
  adapter->load(1000);

  Runner runner(gpu.get(), cpu.get());
  const int n_tokens = 3;
  std::vector<float> x = pseudo_random(static_cast<size_t>(kEmbd) * n_tokens, 5, 1.0f);
  std::vector<float> base = runner.logits(model, nullptr, x, n_tokens);
  std::vector<float> tuned = runner.logits(model, adapter.get(), x, n_tokens);
  if (base.empty() || tuned.empty()) return 1;
  for (int t = 0; t < n_tokens; t++) {
    const float *b = base.data() + static_cast<size_t>(t) * kVocab;
    const float *l = tuned.data() + static_cast<size_t>(t) * kVocab;
    double diff = 0;
    for (int i = 0; i < kVocab; i++) diff += std::fabs(b[i] - l[i]);
    std::printf("token %d: base %d, lora %d, |delta| %.4f\n", t, argmax(b, kVocab), argmax(l, kVocab), diff);
  }
  return 0;
}
