// provenance: blind round g9
// A whisper.cpp-style audio encoder: two 1-D convolutions over a log-mel spectrogram, a
// positional embedding and pre-norm self-attention blocks, weights in F16 on CUDA0 through
// RAII wrappers, the graph allocated with a gallocr that lives in the encoder object. The
// features accessor was written for the CPU build, where the output lived in host memory.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

struct HParams {
  int n_mels = 16;
  int n_frames = 24;  // two conv frames per audio context position
  int n_state = 32;
  int n_head = 4;
  int n_layer = 2;
  ggml_type wtype = GGML_TYPE_F16;
  int n_ctx() const { return n_frames / 2; }
};

struct EncoderLayer {
  ggml_tensor *attn_ln_w, *attn_ln_b;
  ggml_tensor *q_w, *q_b, *k_w, *v_w, *v_b, *o_w, *o_b;
  ggml_tensor *mlp_ln_w, *mlp_ln_b;
  ggml_tensor *fc1_w, *fc1_b, *fc2_w, *fc2_b;
};

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  float next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return (static_cast<float>((state_ >> 40) & 0xffff) / 65536.0f - 0.5f) * 0.2f;
  }

 private:
  uint64_t state_;
};

class WhisperEncoder {
 public:
  WhisperEncoder(const HParams &hp, ggml_backend_t backend) : hp_(hp), backend_(backend) {
    ggml_init_params p = {ggml_tensor_overhead() * 128, nullptr, true};
    ctx_w_.reset(ggml_init(p));
    create_tensors();
    buf_w_.reset(ggml_backend_alloc_ctx_tensors(ctx_w_.get(), backend_));
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
  }

  void load(Rng &rng) {
    for (ggml_tensor *t = ggml_get_first_tensor(ctx_w_.get()); t; t = ggml_get_next_tensor(ctx_w_.get(), t)) {
      std::vector<float> v(ggml_nelements(t));
      for (float &x : v) x = rng.next();
      upload(t, v);
    }
  }

  std::vector<float> encode(const std::vector<float> &mel) {
    ggml_init_params p = {ggml_tensor_overhead() * 1024 + ggml_graph_overhead(), nullptr, true};
    ctx_graph_.reset(ggml_init(p));
    ggml_cgraph *gf = build_graph(ctx_graph_.get());
    if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) return {};
    ggml_backend_tensor_set(mel_, mel.data(), 0, ggml_nbytes(mel_));
    if (ggml_backend_graph_compute(backend_, gf) != GGML_STATUS_SUCCESS) return {};
    return features();
  }

  // [n_state, n_ctx] row-major, as whisper_get_embd hands them to the decoder
  std::vector<float> features() const {
    const float *data = static_cast<const float *>(out_->data);
    return std::vector<float>(data, data + ggml_nelements(out_)); // expect-error: ggml-host-access
  }

 private:
  ggml_tensor *weight(const std::string &name, int64_t ne0, int64_t ne1 = 1, int64_t ne2 = 1, ggml_type type = GGML_TYPE_F32) {
    ggml_tensor *t = ne2 > 1 ? ggml_new_tensor_3d(ctx_w_.get(), type, ne0, ne1, ne2)
                   : ne1 > 1 ? ggml_new_tensor_2d(ctx_w_.get(), type, ne0, ne1)
                             : ggml_new_tensor_1d(ctx_w_.get(), type, ne0);
    ggml_set_name(t, name.c_str());
    return t;
  }

  void create_tensors() {
    const int s = hp_.n_state;
    conv1_w_ = weight("encoder.conv1.weight", 3, hp_.n_mels, s, hp_.wtype);
    conv1_b_ = weight("encoder.conv1.bias", 1, s);
    conv2_w_ = weight("encoder.conv2.weight", 3, s, s, hp_.wtype);
    conv2_b_ = weight("encoder.conv2.bias", 1, s);
    pos_embd_ = weight("encoder.positional_embedding", s, hp_.n_ctx());
    for (int il = 0; il < hp_.n_layer; il++) {
      const std::string pre = "encoder.blocks." + std::to_string(il) + ".";
      EncoderLayer l{};
      l.attn_ln_w = weight(pre + "attn_ln.weight", s);
      l.attn_ln_b = weight(pre + "attn_ln.bias", s);
      l.q_w = weight(pre + "attn.query.weight", s, s, 1, hp_.wtype);
      l.q_b = weight(pre + "attn.query.bias", s);
      l.k_w = weight(pre + "attn.key.weight", s, s, 1, hp_.wtype);
      l.v_w = weight(pre + "attn.value.weight", s, s, 1, hp_.wtype);
      l.v_b = weight(pre + "attn.value.bias", s);
      l.o_w = weight(pre + "attn.out.weight", s, s, 1, hp_.wtype);
      l.o_b = weight(pre + "attn.out.bias", s);
      l.mlp_ln_w = weight(pre + "mlp_ln.weight", s);
      l.mlp_ln_b = weight(pre + "mlp_ln.bias", s);
      l.fc1_w = weight(pre + "mlp.0.weight", s, 4 * s, 1, hp_.wtype);
      l.fc1_b = weight(pre + "mlp.0.bias", 4 * s);
      l.fc2_w = weight(pre + "mlp.2.weight", 4 * s, s, 1, hp_.wtype);
      l.fc2_b = weight(pre + "mlp.2.bias", s);
      layers_.push_back(l);
    }
    ln_post_w_ = weight("encoder.ln_post.weight", s);
    ln_post_b_ = weight("encoder.ln_post.bias", s);
  }

  static void upload(ggml_tensor *t, const std::vector<float> &v) {
    if (t->type == GGML_TYPE_F16) {
      std::vector<ggml_fp16_t> h(v.size());
      ggml_fp32_to_fp16_row(v.data(), h.data(), static_cast<int64_t>(v.size()));
      ggml_backend_tensor_set(t, h.data(), 0, ggml_nbytes(t));
    } else {
      ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
    }
  }

  ggml_tensor *norm(ggml_context *ctx, ggml_tensor *x, ggml_tensor *w, ggml_tensor *b) const {
    return ggml_add(ctx, ggml_mul(ctx, ggml_norm(ctx, x, 1e-5f), w), b);
  }

  ggml_tensor *self_attention(ggml_context *ctx, const EncoderLayer &l, ggml_tensor *cur) const {
    const int n_ctx = hp_.n_ctx(), hd = hp_.n_state / hp_.n_head;
    auto heads = [&](ggml_tensor *x) { return ggml_reshape_3d(ctx, x, hd, hp_.n_head, n_ctx); };
    ggml_tensor *Q = ggml_permute(ctx, heads(ggml_add(ctx, ggml_mul_mat(ctx, l.q_w, cur), l.q_b)), 0, 2, 1, 3);
    ggml_tensor *K = ggml_permute(ctx, heads(ggml_mul_mat(ctx, l.k_w, cur)), 0, 2, 1, 3);
    ggml_tensor *V = ggml_cont(ctx, ggml_permute(ctx, heads(ggml_add(ctx, ggml_mul_mat(ctx, l.v_w, cur), l.v_b)), 1, 2, 0, 3));
    ggml_tensor *kq = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, K, Q), nullptr, 1.0f / std::sqrt(static_cast<float>(hd)), 0.0f);
    ggml_tensor *kqv = ggml_cont(ctx, ggml_permute(ctx, ggml_mul_mat(ctx, V, kq), 0, 2, 1, 3));
    return ggml_add(ctx, ggml_mul_mat(ctx, l.o_w, ggml_reshape_2d(ctx, kqv, hp_.n_state, n_ctx)), l.o_b);
  }

  ggml_cgraph *build_graph(ggml_context *ctx) {
    ggml_cgraph *gf = ggml_new_graph(ctx);
    mel_ = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, hp_.n_frames, hp_.n_mels);
    ggml_set_name(mel_, "mel");
    ggml_set_input(mel_);

    ggml_tensor *cur = ggml_gelu(ctx, ggml_add(ctx, ggml_conv_1d_ph(ctx, conv1_w_, mel_, 1, 1), conv1_b_));
    cur = ggml_gelu(ctx, ggml_add(ctx, ggml_conv_1d_ph(ctx, conv2_w_, cur, 2, 1), conv2_b_));
    cur = ggml_add(ctx, ggml_cont(ctx, ggml_transpose(ctx, cur)), pos_embd_);

    for (const EncoderLayer &l : layers_) {
      cur = ggml_add(ctx, cur, self_attention(ctx, l, norm(ctx, cur, l.attn_ln_w, l.attn_ln_b)));
      ggml_tensor *ff = norm(ctx, cur, l.mlp_ln_w, l.mlp_ln_b);
      ff = ggml_gelu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, l.fc1_w, ff), l.fc1_b));
      cur = ggml_add(ctx, cur, ggml_add(ctx, ggml_mul_mat(ctx, l.fc2_w, ff), l.fc2_b));
    }
    out_ = norm(ctx, cur, ln_post_w_, ln_post_b_);
    ggml_set_name(out_, "embd_enc");
    ggml_set_output(out_);
    ggml_build_forward_expand(gf, out_);
    return gf;
  }

  HParams hp_;
  ggml_backend_t backend_;
  ggml_context_ptr ctx_w_;
  ggml_backend_buffer_ptr buf_w_;
  ggml_gallocr_ptr galloc_;
  ggml_context_ptr ctx_graph_;
  std::vector<EncoderLayer> layers_;
  ggml_tensor *conv1_w_ = nullptr, *conv1_b_ = nullptr, *conv2_w_ = nullptr, *conv2_b_ = nullptr;
  ggml_tensor *pos_embd_ = nullptr, *ln_post_w_ = nullptr, *ln_post_b_ = nullptr;
  ggml_tensor *mel_ = nullptr, *out_ = nullptr;
};

std::vector<float> fake_mel(const HParams &hp, int chunk) {
  std::vector<float> mel(static_cast<size_t>(hp.n_frames) * hp.n_mels);
  for (int m = 0; m < hp.n_mels; m++)
    for (int f = 0; f < hp.n_frames; f++)
      mel[static_cast<size_t>(m) * hp.n_frames + f] = std::sin(0.3f * f + 0.7f * m + chunk) * 0.5f;
  return mel;
}

}  // namespace

int main() {
  HParams hp;
  ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
  if (!gpu) return 1;
  WhisperEncoder enc(hp, gpu.get());
  Rng rng(42);
  enc.load(rng);

  for (int chunk = 0; chunk < 2; chunk++) {
    std::vector<float> feats = enc.encode(fake_mel(hp, chunk));
    if (feats.empty()) return 1;
    double sum = 0;
    for (float f : feats) sum += std::fabs(f);
    std::printf("chunk %d: %zu features, mean |x| = %.4f\n", chunk, feats.size(), sum / feats.size());
  }
  return 0;
}
