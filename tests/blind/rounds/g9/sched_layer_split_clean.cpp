// provenance: blind round g9
// A llama-style decoder whose blocks are spread over every GPU the registry lists (CUDA0 and
// CUDA1 here), token embeddings and the output head in CPU memory, each block's KV cache on
// its block's device, one weight context per device kept in a map. Every decode step builds
// a fresh graph and hands it to the backend scheduler, which splits it by where the weights
// live and copies activations between devices.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml.h"

namespace {

constexpr int kVocab = 50, kEmbd = 32, kHead = 4, kFF = 64, kLayer = 4, kCtx = 32;

struct Block {
  ggml_tensor *attn_norm, *wq, *wk, *wv, *wo, *ffn_norm, *ffn_gate, *ffn_up, *ffn_down;
  ggml_tensor *k_cache, *v_cache;
  ggml_backend_dev_t dev;
};

class Model {
 public:
  Model() {
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
      ggml_backend_dev_t d = ggml_backend_dev_get(i);
      if (ggml_backend_dev_type(d) == GGML_BACKEND_DEVICE_TYPE_GPU) gpus_.push_back(d);
    }
    cpu_dev_ = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    for (ggml_backend_dev_t d : gpus_) backends_.emplace_back(ggml_backend_dev_init(d, nullptr));
    backends_.emplace_back(ggml_backend_dev_init(cpu_dev_, nullptr));
    create();
    allocate_and_load();
  }

  bool ok() const { return !gpus_.empty() && sched_; }
  size_t n_gpu() const { return gpus_.size(); }

  // one decode step over n tokens at n_past; returns the greedy next token
  int decode(const std::vector<int32_t> &tokens) {
    const int n = static_cast<int>(tokens.size());
    ggml_init_params p = {ggml_tensor_overhead() * 4096 + ggml_graph_overhead_custom(4096, false), nullptr, true};
    ggml_context_ptr ctx(ggml_init(p));
    ggml_cgraph *gf = ggml_new_graph_custom(ctx.get(), 4096, false);
    ggml_tensor *ids = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, n);
    ggml_tensor *pos = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, n);
    ggml_set_input(ids);
    ggml_set_input(pos);
    ggml_tensor *cur = ggml_get_rows(ctx.get(), tok_embd_, ids);
    for (Block &b : blocks_) cur = block(ctx.get(), gf, b, cur, pos, n);
    cur = ggml_mul(ctx.get(), ggml_rms_norm(ctx.get(), cur, 1e-5f), out_norm_);
    ggml_tensor *logits = ggml_mul_mat(ctx.get(), output_, ggml_view_1d(ctx.get(), cur, kEmbd, cur->nb[1] * (n - 1)));
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);

    ggml_backend_sched_reset(sched_.get());
    if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) return -1;
    std::vector<int32_t> p_host(n);
    for (int i = 0; i < n; i++) p_host[i] = n_past_ + i;
    ggml_backend_tensor_set(ids, tokens.data(), 0, ggml_nbytes(ids));
    ggml_backend_tensor_set(pos, p_host.data(), 0, ggml_nbytes(pos));
    if (ggml_backend_sched_graph_compute(sched_.get(), gf) != GGML_STATUS_SUCCESS) return -1;
    n_past_ += n;

    std::vector<float> l(kVocab);
    ggml_backend_tensor_get(logits, l.data(), 0, ggml_nbytes(logits));
    int best = 0;
    for (int i = 1; i < kVocab; i++)
      if (l[i] > l[best]) best = i;
    return best;
  }

 private:
  // one context per device and kind (weights or KV cache), created on first use
  static ggml_context *ctx_for(std::map<ggml_backend_dev_t, ggml_context_ptr> &m, ggml_backend_dev_t d) {
    auto it = m.find(d);
    if (it != m.end()) return it->second.get();
    ggml_init_params p = {ggml_tensor_overhead() * 64, nullptr, true};
    return m.emplace(d, ggml_context_ptr(ggml_init(p))).first->second.get();
  }

  void create() {
    ggml_context *c = ctx_for(ctx_w_, cpu_dev_);
    tok_embd_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kEmbd, kVocab);
    out_norm_ = ggml_new_tensor_1d(c, GGML_TYPE_F32, kEmbd);
    output_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kEmbd, kVocab);
    if (gpus_.empty()) return;
    for (int il = 0; il < kLayer; il++) {
      Block b{};
      b.dev = gpus_[static_cast<size_t>(il) * gpus_.size() / kLayer];
      ggml_context *ctx = ctx_for(ctx_w_, b.dev), *kv = ctx_for(ctx_kv_, b.dev);
      b.attn_norm = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, kEmbd);
      b.wq = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, kEmbd, kEmbd);
      b.wk = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, kEmbd, kEmbd);
      b.wv = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, kEmbd, kEmbd);
      b.wo = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, kEmbd, kEmbd);
      b.ffn_norm = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, kEmbd);
      b.ffn_gate = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, kEmbd, kFF);
      b.ffn_up = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, kEmbd, kFF);
      b.ffn_down = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, kFF, kEmbd);
      b.k_cache = ggml_new_tensor_2d(kv, GGML_TYPE_F16, kEmbd, kCtx);
      b.v_cache = ggml_new_tensor_2d(kv, GGML_TYPE_F32, kEmbd, kCtx);
      ggml_format_name(b.k_cache, "cache_k_l%d", il);
      ggml_format_name(b.v_cache, "cache_v_l%d", il);
      blocks_.push_back(b);
    }
  }

  void allocate_and_load() {
    for (auto &kv : ctx_kv_) {
      ggml_backend_buffer_ptr buf(ggml_backend_alloc_ctx_tensors_from_buft(kv.second.get(), ggml_backend_dev_buffer_type(kv.first)));
      if (!buf) return;
      ggml_backend_buffer_clear(buf.get(), 0);
      bufs_.push_back(std::move(buf));
    }
    uint32_t seed = 99;
    for (auto &kv : ctx_w_) {
      ggml_backend_buffer_type_t buft = ggml_backend_dev_buffer_type(kv.first);
      ggml_backend_buffer_ptr buf(ggml_backend_alloc_ctx_tensors_from_buft(kv.second.get(), buft));
      if (!buf) return;
      // lets the scheduler run each op where its weights are
      ggml_backend_buffer_set_usage(buf.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
      for (ggml_tensor *t = ggml_get_first_tensor(kv.second.get()); t; t = ggml_get_next_tensor(kv.second.get(), t)) {
        std::vector<float> v(ggml_nelements(t));
        for (float &x : v) x = (static_cast<float>((seed = seed * 1664525u + 1013904223u) >> 16) / 65536.0f - 0.5f) * 0.3f;
        if (t->type == GGML_TYPE_F16) {
          std::vector<ggml_fp16_t> h(v.size());
          ggml_fp32_to_fp16_row(v.data(), h.data(), static_cast<int64_t>(v.size()));
          ggml_backend_tensor_set(t, h.data(), 0, ggml_nbytes(t));
        } else {
          ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
        }
      }
      bufs_.push_back(std::move(buf));
    }
    std::vector<ggml_backend_t> raw;
    for (auto &b : backends_) raw.push_back(b.get());
    sched_.reset(ggml_backend_sched_new(raw.data(), nullptr, static_cast<int>(raw.size()), 4096, false, true));
  }

  ggml_tensor *block(ggml_context *ctx, ggml_cgraph *gf, Block &b, ggml_tensor *inpL, ggml_tensor *pos, int n) {
    const int hd = kEmbd / kHead, n_kv = n_past_ + n;
    ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, inpL, 1e-5f), b.attn_norm);
    ggml_tensor *q = ggml_rope(ctx, ggml_reshape_3d(ctx, ggml_mul_mat(ctx, b.wq, cur), hd, kHead, n), pos, hd, 0);
    ggml_tensor *k = ggml_rope(ctx, ggml_reshape_3d(ctx, ggml_mul_mat(ctx, b.wk, cur), hd, kHead, n), pos, hd, 0);
    ggml_tensor *v = ggml_mul_mat(ctx, b.wv, cur);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, k, ggml_view_2d(ctx, b.k_cache, kEmbd, n, b.k_cache->nb[1], b.k_cache->nb[1] * n_past_)));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, v, ggml_view_2d(ctx, b.v_cache, kEmbd, n, b.v_cache->nb[1], b.v_cache->nb[1] * n_past_)));
    ggml_tensor *K = ggml_view_3d(ctx, b.k_cache, hd, kHead, n_kv, ggml_row_size(b.k_cache->type, hd), b.k_cache->nb[1], 0);
    ggml_tensor *V = ggml_view_3d(ctx, b.v_cache, hd, kHead, n_kv, hd * sizeof(float), b.v_cache->nb[1], 0);
    ggml_tensor *kq = ggml_mul_mat(ctx, ggml_permute(ctx, K, 0, 2, 1, 3), ggml_permute(ctx, q, 0, 2, 1, 3));
    kq = ggml_soft_max(ctx, ggml_diag_mask_inf(ctx, ggml_scale(ctx, kq, 1.0f / std::sqrt(static_cast<float>(hd))), n_past_));
    ggml_tensor *kqv = ggml_mul_mat(ctx, ggml_cont(ctx, ggml_permute(ctx, V, 1, 2, 0, 3)), kq);
    kqv = ggml_cont(ctx, ggml_permute(ctx, kqv, 0, 2, 1, 3));
    cur = ggml_add(ctx, inpL, ggml_mul_mat(ctx, b.wo, ggml_reshape_2d(ctx, kqv, kEmbd, n)));
    ggml_tensor *ff = ggml_mul(ctx, ggml_rms_norm(ctx, cur, 1e-5f), b.ffn_norm);
    ff = ggml_mul(ctx, ggml_silu(ctx, ggml_mul_mat(ctx, b.ffn_gate, ff)), ggml_mul_mat(ctx, b.ffn_up, ff));
    return ggml_add(ctx, cur, ggml_mul_mat(ctx, b.ffn_down, ff));
  }

  std::vector<ggml_backend_dev_t> gpus_;
  ggml_backend_dev_t cpu_dev_ = nullptr;
  std::vector<ggml_backend_ptr> backends_;
  std::map<ggml_backend_dev_t, ggml_context_ptr> ctx_w_, ctx_kv_;
  std::vector<ggml_backend_buffer_ptr> bufs_;
  std::vector<Block> blocks_;
  ggml_tensor *tok_embd_ = nullptr, *out_norm_ = nullptr, *output_ = nullptr;
  ggml_backend_sched_ptr sched_;
  int n_past_ = 0;
};

}  // namespace

int main() {
  Model model;
  if (!model.ok()) {
    std::fprintf(stderr, "no GPU device\n");
    return 1;
  }
  std::printf("blocks over %zu GPU(s)\n", model.n_gpu());
  int tok = model.decode({4, 17, 30, 2, 9});
  std::printf("prompt -> %d\n", tok);
  for (int i = 0; i < 4 && tok >= 0; i++) {
    tok = model.decode({tok});
    std::printf("step %d -> %d\n", i, tok);
  }
  return tok >= 0 ? 0 : 1;
}
