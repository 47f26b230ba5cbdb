// provenance: blind round g10
// run-args: --draft-gpu
// Speculative decoding the llama.cpp way: a target model on the GPU and a small draft model
// with the same vocabulary, by default on the CPU (`--draft-gpu` offloads it to the second
// GPU). The draft does not load its own token embeddings: they are taken from the target's
// table once the target is loaded. Each round the draft proposes a few tokens greedily, the
// target scores the whole sequence in one pass and the longest agreeing prefix is accepted.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
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

constexpr int64_t kVocab = 32;
constexpr int64_t kEmbd = 16;
constexpr int kMaxTokens = 48;

struct HParams {
  std::string name;
  int n_layer = 1;
  int64_t n_ff = 32;
  int seed = 1;
};

struct Layer {
  ggml_tensor* attn_norm = nullptr;
  ggml_tensor* wq = nullptr;
  ggml_tensor* wk = nullptr;
  ggml_tensor* wv = nullptr;
  ggml_tensor* ffn_norm = nullptr;
  ggml_tensor* ffn_up = nullptr;
  ggml_tensor* ffn_down = nullptr;
};

class LlamaLite {
 public:
  LlamaLite(HParams hp, ggml_backend_ptr backend, bool own_embd) : hp_(std::move(hp)), backend_(std::move(backend)), own_embd_(own_embd) {
    ggml_init_params params = {ggml_tensor_overhead() * (2 + 7 * hp_.n_layer), nullptr, true};
    ctx_.reset(ggml_init(params));
    tok_embd_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kVocab);
    ggml_set_name(tok_embd_, "token_embd.weight");
    out_norm_ = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kEmbd);
    for (int il = 0; il < hp_.n_layer; ++il) {
      Layer l;
      l.attn_norm = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kEmbd);
      l.wq = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
      l.wk = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
      l.wv = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
      l.ffn_norm = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kEmbd);
      l.ffn_up = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, hp_.n_ff);
      l.ffn_down = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp_.n_ff, kEmbd);
      layers_.push_back(l);
    }
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
    if (!buf_) throw std::runtime_error(hp_.name + ": cannot allocate the weights");
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    load();
  }

  const std::string& name() const { return hp_.name; }
  const char* placement() const { return ggml_backend_name(backend_.get()); }
  const ggml_tensor* tok_embd() const { return tok_embd_; }

  // The draft reuses the target's embedding table; the draft's weights are host memory.
  void share_embeddings_from(const LlamaLite& target) {
    ggml_backend_tensor_get(target.tok_embd(), tok_embd_->data, 0, ggml_nbytes(tok_embd_)); // expect-warning: ggml-host-access
    own_embd_ = true;
  }

  // Logits of every position of `tokens`, [n_tokens][kVocab].
  std::vector<float> eval(const std::vector<int32_t>& tokens) {
    if (!own_embd_) throw std::logic_error(hp_.name + ": no token embeddings");
    const int64_t n = static_cast<int64_t>(tokens.size());
    ggml_init_params params = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(params));
    ggml_context* c = ctx.get();
    ggml_tensor* inp = ggml_new_tensor_1d(c, GGML_TYPE_I32, n);
    ggml_set_input(inp);
    ggml_tensor* x = ggml_get_rows(c, tok_embd_, inp);
    const float kq_scale = 1.0f / std::sqrt(static_cast<float>(kEmbd));
    for (const Layer& l : layers_) {
      ggml_tensor* cur = ggml_mul(c, ggml_rms_norm(c, x, 1e-5f), l.attn_norm);
      ggml_tensor* q = ggml_mul_mat(c, l.wq, cur);
      ggml_tensor* k = ggml_mul_mat(c, l.wk, cur);
      ggml_tensor* v = ggml_mul_mat(c, l.wv, cur);
      ggml_tensor* kq = ggml_scale(c, ggml_mul_mat(c, k, q), kq_scale);
      kq = ggml_soft_max(c, ggml_diag_mask_inf(c, kq, 0));
      ggml_tensor* kqv = ggml_mul_mat(c, ggml_cont(c, ggml_transpose(c, v)), kq);
      x = ggml_add(c, x, kqv);
      cur = ggml_mul(c, ggml_rms_norm(c, x, 1e-5f), l.ffn_norm);
      x = ggml_add(c, x, ggml_mul_mat(c, l.ffn_down, ggml_silu(c, ggml_mul_mat(c, l.ffn_up, cur))));
    }
    x = ggml_mul(c, ggml_rms_norm(c, x, 1e-5f), out_norm_);
    ggml_tensor* logits = ggml_mul_mat(c, tok_embd_, x);
    ggml_set_output(logits);
    ggml_cgraph* gf = ggml_new_graph(c);
    ggml_build_forward_expand(gf, logits);
    if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) throw std::runtime_error(hp_.name + ": alloc failed");
    ggml_backend_tensor_set(inp, tokens.data(), 0, ggml_nbytes(inp));
    if (ggml_backend_graph_compute(backend_.get(), gf) != GGML_STATUS_SUCCESS) throw std::runtime_error(hp_.name + ": compute failed");
    std::vector<float> out(ggml_nelements(logits));
    ggml_backend_tensor_get(logits, out.data(), 0, ggml_nbytes(logits));
    ++n_evals_;
    return out;
  }

  int n_evals() const { return n_evals_; }

 private:
  void load() {
    int salt = hp_.seed;
    for (ggml_tensor* t = ggml_get_first_tensor(ctx_.get()); t; t = ggml_get_next_tensor(ctx_.get(), t), ++salt) {
      if (t == tok_embd_ && !own_embd_) continue;  // filled by share_embeddings_from
      std::vector<float> w(ggml_nelements(t));
      const bool is_norm = ggml_n_dims(t) == 1;
      uint32_t state = 2654435761u * static_cast<uint32_t>(t == tok_embd_ ? 1 : salt);
      for (float& v : w) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        v = is_norm ? 1.0f : (static_cast<float>(state % 2001) / 1000.0f - 1.0f) * (t == tok_embd_ ? 1.0f : 0.35f);
      }
      ggml_backend_tensor_set(t, w.data(), 0, ggml_nbytes(t));
    }
  }

  HParams hp_;
  ggml_backend_ptr backend_;
  bool own_embd_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  ggml_gallocr_ptr galloc_;
  ggml_tensor* tok_embd_ = nullptr;
  ggml_tensor* out_norm_ = nullptr;
  std::vector<Layer> layers_;
  int n_evals_ = 0;
};

int32_t argmax_at(const std::vector<float>& logits, size_t pos) {
  const float* row = logits.data() + pos * kVocab;
  return static_cast<int32_t>(std::max_element(row, row + kVocab) - row);
}

struct SpecParams {
  int n_draft = 4;
  int n_predict = 16;
  bool draft_gpu = false;
};

SpecParams parse_args(int argc, char** argv) {
  SpecParams p;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--draft-gpu") p.draft_gpu = true;
    else if (a == "--draft" && i + 1 < argc) p.n_draft = std::atoi(argv[++i]);
    else if (a == "-n" && i + 1 < argc) p.n_predict = std::atoi(argv[++i]);
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const SpecParams sp = parse_args(argc, argv);

  ggml_backend_ptr target_backend(ggml_backend_cuda_init(0));
  if (!target_backend) return 1;
  ggml_backend_ptr draft_backend(sp.draft_gpu ? ggml_backend_cuda_init(ggml_backend_cuda_get_device_count() > 1 ? 1 : 0) : ggml_backend_cpu_init());
  if (!draft_backend) return 1;

  auto target = std::make_unique<LlamaLite>(HParams{"target", 3, 48, 7}, std::move(target_backend), true);
  auto draft = std::make_unique<LlamaLite>(HParams{"draft", 1, 16, 11}, std::move(draft_backend), false);
  draft->share_embeddings_from(*target);
  std::printf("target on %s, draft on %s\n", target->placement(), draft->placement());

  std::vector<int32_t> seq = {1, 5, 9, 2};
  std::map<std::string, int> stats;
  auto propose = [&](const std::vector<int32_t>& prefix) {
    std::vector<int32_t> ctx = prefix, drafted;
    for (int i = 0; i < sp.n_draft && static_cast<int>(ctx.size()) < kMaxTokens; ++i) {
      const std::vector<float> logits = draft->eval(ctx);
      const int32_t tok = argmax_at(logits, ctx.size() - 1);
      drafted.push_back(tok);
      ctx.push_back(tok);
    }
    return drafted;
  };

  int generated = 0;
  while (generated < sp.n_predict && static_cast<int>(seq.size()) + sp.n_draft + 1 < kMaxTokens) {
    const std::vector<int32_t> drafted = propose(seq);
    std::vector<int32_t> verify = seq;
    verify.insert(verify.end(), drafted.begin(), drafted.end());
    const std::vector<float> logits = target->eval(verify);
    size_t accepted = 0;
    while (accepted < drafted.size() && argmax_at(logits, seq.size() - 1 + accepted) == drafted[accepted]) ++accepted;
    const int32_t fix = argmax_at(logits, seq.size() - 1 + accepted);
    seq.insert(seq.end(), drafted.begin(), drafted.begin() + static_cast<long>(accepted));
    seq.push_back(fix);
    generated += static_cast<int>(accepted) + 1;
    stats["drafted"] += static_cast<int>(drafted.size());
    stats["accepted"] += static_cast<int>(accepted);
    stats["rounds"] += 1;
  }

  std::printf("sequence:");
  for (int32_t t : seq) std::printf(" %d", t);
  std::printf("\n");
  for (const auto& kv : stats) std::printf("%s: %d\n", kv.first.c_str(), kv.second);
  std::printf("evals: target %d, draft %d\n", target->n_evals(), draft->n_evals());
  return 0;
}
