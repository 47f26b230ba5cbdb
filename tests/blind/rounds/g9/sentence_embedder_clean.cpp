// provenance: blind round g9
// run-env: EMBD_DEVICE=cuda1
// A BERT-style sentence embedder (llama.cpp's embedding mode): token + position + token-type
// embeddings, one post-norm encoder block, mean pooling and L2 normalisation. The device is
// picked at run time (EMBD_DEVICE=cpu|cuda0|cuda1); weights, the graph allocator and the
// compute all use that one backend, and reading the pooled output takes a zero-copy path
// only when the output's buffer is host memory.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

constexpr int kVocab = 64, kEmbd = 32, kHeads = 4, kFF = 64, kMaxPos = 32;

ggml_backend_t backend_from_env() {
  const char *dev = std::getenv("EMBD_DEVICE");
  std::string d = dev ? dev : "cuda0";
  if (d == "cpu") return ggml_backend_cpu_init();
  if (d == "cuda1") return ggml_backend_cuda_init(1);
  return ggml_backend_cuda_init(0);
}

std::vector<int32_t> tokenize(const std::string &text) {
  std::vector<int32_t> ids{1};  // [CLS]
  uint32_t h = 2166136261u;
  for (char c : text) {
    if (c == ' ') {
      ids.push_back(static_cast<int32_t>(2 + h % (kVocab - 3)));
      h = 2166136261u;
    } else {
      h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
    }
  }
  ids.push_back(static_cast<int32_t>(2 + h % (kVocab - 3)));
  ids.push_back(kVocab - 1);  // [SEP]
  return ids;
}

class Embedder {
 public:
  explicit Embedder(ggml_backend_t backend) : backend_(backend) {
    ggml_init_params p = {ggml_tensor_overhead() * 32, nullptr, true};
    ctx_.reset(ggml_init(p));
    auto t2 = [this](const char *name, ggml_type type, int64_t a, int64_t b) {
      ggml_tensor *t = ggml_new_tensor_2d(ctx_.get(), type, a, b);
      ggml_set_name(t, name);
      return t;
    };
    tok_embd_ = t2("token_embd.weight", GGML_TYPE_F32, kEmbd, kVocab);
    pos_embd_ = t2("position_embd.weight", GGML_TYPE_F32, kEmbd, kMaxPos);
    type_embd_ = t2("token_types.weight", GGML_TYPE_F32, kEmbd, 2);
    ln_e_w_ = t2("token_embd_norm.weight", GGML_TYPE_F32, kEmbd, 1);
    ln_e_b_ = t2("token_embd_norm.bias", GGML_TYPE_F32, kEmbd, 1);
    wqkv_ = t2("blk.0.attn_qkv.weight", GGML_TYPE_F16, kEmbd, 3 * kEmbd);
    wo_ = t2("blk.0.attn_output.weight", GGML_TYPE_F16, kEmbd, kEmbd);
    ln1_w_ = t2("blk.0.attn_output_norm.weight", GGML_TYPE_F32, kEmbd, 1);
    ln1_b_ = t2("blk.0.attn_output_norm.bias", GGML_TYPE_F32, kEmbd, 1);
    up_ = t2("blk.0.ffn_up.weight", GGML_TYPE_F16, kEmbd, kFF);
    down_ = t2("blk.0.ffn_down.weight", GGML_TYPE_F16, kFF, kEmbd);
    ln2_w_ = t2("blk.0.layer_output_norm.weight", GGML_TYPE_F32, kEmbd, 1);
    ln2_b_ = t2("blk.0.layer_output_norm.bias", GGML_TYPE_F32, kEmbd, 1);
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
    randomize();
  }

  std::vector<float> embed(const std::vector<int32_t> &ids) {
    const int n = static_cast<int>(ids.size());
    ggml_init_params p = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr gctx(ggml_init(p));
    ggml_context *ctx = gctx.get();
    ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_tensor *tok = input_i32(ctx, n), *pos = input_i32(ctx, n), *typ = input_i32(ctx, n);

    auto ln = [ctx](ggml_tensor *x, ggml_tensor *w, ggml_tensor *b) { return ggml_add(ctx, ggml_mul(ctx, ggml_norm(ctx, x, 1e-12f), w), b); };
    ggml_tensor *x = ggml_add(ctx, ggml_add(ctx, ggml_get_rows(ctx, tok_embd_, tok), ggml_get_rows(ctx, pos_embd_, pos)),
                              ggml_get_rows(ctx, type_embd_, typ));
    x = ln(x, ln_e_w_, ln_e_b_);

    const int hd = kEmbd / kHeads;
    ggml_tensor *qkv = ggml_mul_mat(ctx, wqkv_, x);
    auto heads = [&](int i) {
      return ggml_cont(ctx, ggml_permute(ctx, ggml_view_3d(ctx, qkv, hd, kHeads, n, hd * sizeof(float), qkv->nb[1], i * kEmbd * sizeof(float)), 0, 2, 1, 3));
    };
    ggml_tensor *q = heads(0), *k = heads(1), *v = heads(2);
    ggml_tensor *kq = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, k, q), nullptr, 1.0f / std::sqrt(static_cast<float>(hd)), 0.0f);
    ggml_tensor *o = ggml_mul_mat(ctx, ggml_cont(ctx, ggml_transpose(ctx, v)), kq);
    o = ggml_reshape_2d(ctx, ggml_cont(ctx, ggml_permute(ctx, o, 0, 2, 1, 3)), kEmbd, n);
    x = ln(ggml_add(ctx, x, ggml_mul_mat(ctx, wo_, o)), ln1_w_, ln1_b_);
    x = ln(ggml_add(ctx, x, ggml_mul_mat(ctx, down_, ggml_gelu(ctx, ggml_mul_mat(ctx, up_, x)))), ln2_w_, ln2_b_);

    ggml_tensor *pooled = ggml_mean(ctx, ggml_cont(ctx, ggml_transpose(ctx, x)));  // [1, kEmbd]
    pooled = ggml_l2_norm(ctx, ggml_reshape_1d(ctx, pooled, kEmbd), 1e-12f);
    ggml_set_output(pooled);
    ggml_build_forward_expand(gf, pooled);

    if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) return {};
    std::vector<int32_t> positions(n), types(n, 0);
    for (int i = 0; i < n; i++) positions[i] = i;
    ggml_backend_tensor_set(tok, ids.data(), 0, ggml_nbytes(tok));
    ggml_backend_tensor_set(pos, positions.data(), 0, ggml_nbytes(pos));
    ggml_backend_tensor_set(typ, types.data(), 0, ggml_nbytes(typ));
    if (ggml_backend_graph_compute(backend_, gf) != GGML_STATUS_SUCCESS) return {};
    return read_output(pooled);
  }

 private:
  static ggml_tensor *input_i32(ggml_context *ctx, int n) {
    ggml_tensor *t = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n);
    ggml_set_input(t);
    return t;
  }

  static std::vector<float> read_output(const ggml_tensor *t) {
    std::vector<float> out(ggml_nelements(t));
    if (t->buffer && ggml_backend_buffer_is_host(t->buffer)) {
      std::memcpy(out.data(), t->data, ggml_nbytes(t));  // CPU backend: no copy through the API
    } else {
      ggml_backend_tensor_get(t, out.data(), 0, ggml_nbytes(t));
    }
    return out;
  }

  void randomize() {
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (ggml_tensor *t = ggml_get_first_tensor(ctx_.get()); t; t = ggml_get_next_tensor(ctx_.get(), t)) {
      std::vector<float> v(ggml_nelements(t));
      for (float &x : v) {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        x = (static_cast<float>((s * 2685821657736338717ull) >> 40) / 16777216.0f - 0.5f) * 0.4f;
      }
      if (t->type == GGML_TYPE_F16) {
        std::vector<ggml_fp16_t> h(v.size());
        ggml_fp32_to_fp16_row(v.data(), h.data(), static_cast<int64_t>(v.size()));
        ggml_backend_tensor_set(t, h.data(), 0, ggml_nbytes(t));
      } else {
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
      }
    }
  }

  ggml_backend_t backend_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  ggml_gallocr_ptr galloc_;
  ggml_tensor *tok_embd_, *pos_embd_, *type_embd_, *ln_e_w_, *ln_e_b_;
  ggml_tensor *wqkv_, *wo_, *ln1_w_, *ln1_b_, *up_, *down_, *ln2_w_, *ln2_b_;
};

float cosine(const std::vector<float> &a, const std::vector<float> &b) {
  float s = 0;
  for (size_t i = 0; i < a.size(); i++) s += a[i] * b[i];
  return s;  // both are unit vectors
}

}  // namespace

int main() {
  ggml_backend_ptr backend(backend_from_env());
  if (!backend) return 1;
  auto embedder = std::make_unique<Embedder>(backend.get());
  const std::vector<std::string> docs = {
      "the cat sat on the mat", "a cat was sitting on a mat", "quarterly revenue grew by ten percent",
      "stocks rallied after the earnings report", "the dog chased the cat"};
  std::vector<std::vector<float>> embs;
  for (const std::string &d : docs) {
    embs.push_back(embedder->embed(tokenize(d)));
    if (embs.back().empty()) return 1;
  }
  std::printf("backend %s\n", ggml_backend_name(backend.get()));
  for (size_t i = 1; i < docs.size(); i++) std::printf("cos(doc0, doc%zu) = %.4f\n", i, cosine(embs[0], embs[i]));
  return 0;
}
