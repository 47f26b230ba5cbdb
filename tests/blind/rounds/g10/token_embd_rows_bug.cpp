// provenance: blind round g10
// A llama-embedding style sentence encoder in C++: a word-level tokenizer, batches of token
// ids, graph inputs registered by name in a small input registry (llm_graph_input style), a
// transformer layer with RoPE, mean pooling, and the graph run through a scheduler over the
// GPU and the CPU. Smart pointers from ggml-cpp.h own every ggml object.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kEmbd = 16;
constexpr int kHead = 2;
constexpr int kHeadDim = kEmbd / kHead;
constexpr int kBatch = 4;

class Tokenizer {
 public:
  explicit Tokenizer(const std::vector<std::string>& vocab) {
    for (size_t i = 0; i < vocab.size(); ++i) ids_[vocab[i]] = static_cast<int32_t>(i);
  }
  std::vector<int32_t> encode(const std::string& text) const {
    std::vector<int32_t> out;
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
      auto it = ids_.find(word);
      out.push_back(it == ids_.end() ? unk_id() : it->second);
    }
    return out;
  }
  int32_t unk_id() const { return 0; }
  int n_vocab() const { return static_cast<int>(ids_.size()); }

 private:
  std::unordered_map<std::string, int32_t> ids_;
};

struct Layer {
  ggml_tensor* attn_norm = nullptr;
  ggml_tensor* wq = nullptr;
  ggml_tensor* wk = nullptr;
  ggml_tensor* wv = nullptr;
  ggml_tensor* wo = nullptr;
};

class EncoderModel {
 public:
  EncoderModel(ggml_backend_t backend, int n_vocab, int n_layer) : layers_(n_layer) {
    ggml_init_params params = {ggml_tensor_overhead() * (1 + 5 * n_layer), nullptr, true};
    ctx_.reset(ggml_init(params));
    tok_embd_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, n_vocab);
    ggml_set_name(tok_embd_, "token_embd.weight");
    for (auto& l : layers_) {
      l.attn_norm = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kEmbd);
      l.wq = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
      l.wk = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
      l.wv = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
      l.wo = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
    }
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
    if (!buf_) throw std::runtime_error("failed to allocate the model's weights");
    ggml_backend_buffer_set_usage(buf_.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    int salt = 0;
    for (ggml_tensor* t = ggml_get_first_tensor(ctx_.get()); t; t = ggml_get_next_tensor(ctx_.get(), t)) {
      std::vector<float> w(ggml_nelements(t));
      for (size_t i = 0; i < w.size(); ++i) w[i] = ggml_n_dims(t) == 1 ? 1.0f : 0.2f * std::sin(0.7f * i + salt);
      ggml_backend_tensor_set(t, w.data(), 0, ggml_nbytes(t));
      ++salt;
    }
  }
  ggml_tensor* tok_embd() const { return tok_embd_; }
  const std::vector<Layer>& layers() const { return layers_; }

 private:
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  ggml_tensor* tok_embd_ = nullptr;
  std::vector<Layer> layers_;
};

// The graph's inputs, registered by name so the runner can fill them after allocation.
class GraphInputs {
 public:
  ggml_tensor* add(ggml_context* ctx, const std::string& name, int64_t n, ggml_type type = GGML_TYPE_F32) {
    ggml_tensor* t = ggml_new_tensor_1d(ctx, type, n);
    ggml_set_name(t, name.c_str());
    ggml_set_input(t);
    tensors_[name] = t;
    return t;
  }
  ggml_tensor* get(const std::string& name) const { return tensors_.at(name); }
  void clear() { tensors_.clear(); }

 private:
  std::map<std::string, ggml_tensor*> tensors_;
};

class EncoderRunner {
 public:
  EncoderRunner(const EncoderModel& model, ggml_backend_t gpu, ggml_backend_t cpu) : model_(model), meta_(ggml_tensor_overhead() * 512 + ggml_graph_overhead()) {
    ggml_backend_t backends[2] = {gpu, cpu};
    sched_.reset(ggml_backend_sched_new(backends, nullptr, 2, 512, false, true));
  }

  std::vector<float> embed(const std::vector<int32_t>& tokens) {
    const int n_tokens = static_cast<int>(tokens.size());
    ggml_init_params params = {meta_.size(), meta_.data(), true};
    ggml_context_ptr ctx(ggml_init(params));
    ggml_cgraph* gf = build(ctx.get(), n_tokens);

    ggml_backend_sched_reset(sched_.get());
    if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) throw std::runtime_error("alloc failed");
    std::vector<int32_t> pos(n_tokens);
    for (int i = 0; i < n_tokens; ++i) pos[i] = i;
    ggml_backend_tensor_set(inputs_.get("inp_tokens"), tokens.data(), 0, tokens.size() * sizeof(int32_t));
    ggml_backend_tensor_set(inputs_.get("inp_pos"), pos.data(), 0, pos.size() * sizeof(int32_t));
    if (ggml_backend_sched_graph_compute(sched_.get(), gf) != GGML_STATUS_SUCCESS) throw std::runtime_error("compute failed");

    std::vector<float> out(kEmbd);
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "embd_pooled"), out.data(), 0, out.size() * sizeof(float));
    return out;
  }

 private:
  ggml_cgraph* build(ggml_context* ctx, int n_tokens) {
    inputs_.clear();
    ggml_cgraph* gf = ggml_new_graph_custom(ctx, 512, false);
    ggml_tensor* tokens = inputs_.add(ctx, "inp_tokens", n_tokens);
    ggml_tensor* pos = inputs_.add(ctx, "inp_pos", n_tokens, GGML_TYPE_I32);

    ggml_tensor* x = ggml_get_rows(ctx, model_.tok_embd(), tokens); // expect-error: ggml-type-mismatch
    const float kq_scale = 1.0f / std::sqrt(static_cast<float>(kHeadDim));
    for (const Layer& l : model_.layers()) {
      ggml_tensor* cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-6f), l.attn_norm);
      auto proj = [&](ggml_tensor* w) { return ggml_reshape_3d(ctx, ggml_mul_mat(ctx, w, cur), kHeadDim, kHead, n_tokens); };
      auto rope = [&](ggml_tensor* t) { return ggml_rope_ext(ctx, t, pos, nullptr, kHeadDim, 0, 0, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f); };
      ggml_tensor* q = ggml_permute(ctx, rope(proj(l.wq)), 0, 2, 1, 3);
      ggml_tensor* k = ggml_permute(ctx, rope(proj(l.wk)), 0, 2, 1, 3);
      ggml_tensor* v = ggml_cont(ctx, ggml_permute(ctx, proj(l.wv), 1, 2, 0, 3));
      ggml_tensor* kq = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, k, q), nullptr, kq_scale, 0.0f);
      ggml_tensor* kqv = ggml_cont(ctx, ggml_permute(ctx, ggml_mul_mat(ctx, v, kq), 0, 2, 1, 3));
      x = ggml_add(ctx, x, ggml_mul_mat(ctx, l.wo, ggml_reshape_2d(ctx, kqv, kEmbd, n_tokens)));
    }
    ggml_tensor* pooled = ggml_scale(ctx, ggml_sum_rows(ctx, ggml_cont(ctx, ggml_transpose(ctx, x))), 1.0f / n_tokens);
    ggml_set_name(pooled, "embd_pooled");
    ggml_set_output(pooled);
    ggml_build_forward_expand(gf, pooled);
    return gf;
  }

  const EncoderModel& model_;
  std::vector<uint8_t> meta_;
  ggml_backend_sched_ptr sched_;
  GraphInputs inputs_;
};

float cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return static_cast<float>(ab / (std::sqrt(aa * bb) + 1e-12));
}

}  // namespace

int main() {
  const std::vector<std::string> vocab = {"<unk>", "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "a", "cat", "sleeps"};
  const std::vector<std::string> sentences = {"the quick brown fox", "a lazy dog sleeps", "the cat jumps over the dog", "quick quick fox"};

  ggml_backend_ptr gpu(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr));
  ggml_backend_ptr cpu(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr));
  if (!gpu || !cpu) {
    std::fprintf(stderr, "need a GPU and a CPU backend\n");
    return 1;
  }
  Tokenizer tok(vocab);
  EncoderModel model(gpu.get(), tok.n_vocab(), 2);
  EncoderRunner runner(model, gpu.get(), cpu.get());

  std::vector<std::vector<float>> embeddings;
  for (const std::string& s : sentences) {
    std::vector<int32_t> ids = tok.encode(s);
    // long inputs are truncated to the batch size
    if (ids.size() > static_cast<size_t>(kBatch)) ids.resize(kBatch);
    embeddings.push_back(runner.embed(ids));
    std::printf("%-28s -> %zu tokens, e[0] = %.4f\n", s.c_str(), ids.size(), static_cast<double>(embeddings.back()[0]));
  }
  for (size_t i = 1; i < embeddings.size(); ++i)
    std::printf("cos(0, %zu) = %.4f\n", i, static_cast<double>(cosine(embeddings[0], embeddings[i])));
  return 0;
}
