// provenance: blind round g9
// run-args: --verbose --image-size 16
// A llava-style image encoder (clip.cpp): patch embedding by a strided conv, one pre-norm ViT
// block, and the two-layer MLP projector (mmproj) that maps patches into the language model's
// embedding space. It runs on CUDA0, or on the CPU with --cpu. --verbose logs the first
// values of the projected embeddings with a helper from the CPU-only days.
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

struct ClipParams {
  bool use_gpu = true;
  bool verbose = false;
  int image_size = 16;
  int patch_size = 4;
  int n_embd = 32;
  int n_head = 4;
  int n_proj = 48;
  int n_patches() const { return (image_size / patch_size) * (image_size / patch_size); }
};

ClipParams parse(int argc, char **argv) {
  ClipParams p;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--cpu") p.use_gpu = false;
    else if (a == "--verbose") p.verbose = true;
    else if (a == "--image-size" && i + 1 < argc) p.image_size = std::atoi(argv[++i]) / p.patch_size * p.patch_size;
  }
  if (p.image_size < p.patch_size || p.image_size > 64) p.image_size = 16;
  return p;
}

void log_tensor_head(const char *what, const ggml_tensor *t, int n) {
  std::string line = std::string(what) + " " + t->name + " [" + std::to_string(t->ne[0]) + " x " + std::to_string(t->ne[1]) + "]:";
  char num[32];
  for (int i = 0; i < n && i < ggml_nelements(t); i++) {
    std::snprintf(num, sizeof num, " %.4f", ggml_get_f32_1d(t, i)); // expect-warning: ggml-host-access
    line += num;
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

class ClipModel {
 public:
  ClipModel(const ClipParams &p, ggml_backend_t backend) : p_(p), backend_(backend) {
    ggml_init_params ip = {ggml_tensor_overhead() * 32, nullptr, true};
    ctx_.reset(ggml_init(ip));
    const int e = p.n_embd;
    patch_w = make("v.patch_embd.weight", GGML_TYPE_F16, {p.patch_size, p.patch_size, 3, e});
    pos_embd = make("v.position_embd.weight", GGML_TYPE_F32, {e, p.n_patches()});
    ln1_w = make("v.blk.0.ln1.weight", GGML_TYPE_F32, {e});
    ln1_b = make("v.blk.0.ln1.bias", GGML_TYPE_F32, {e});
    qkv_w = make("v.blk.0.attn_qkv.weight", GGML_TYPE_F16, {e, 3 * e});
    out_w = make("v.blk.0.attn_out.weight", GGML_TYPE_F16, {e, e});
    ln2_w = make("v.blk.0.ln2.weight", GGML_TYPE_F32, {e});
    ln2_b = make("v.blk.0.ln2.bias", GGML_TYPE_F32, {e});
    ffn_up = make("v.blk.0.ffn_up.weight", GGML_TYPE_F16, {e, 4 * e});
    ffn_down = make("v.blk.0.ffn_down.weight", GGML_TYPE_F16, {4 * e, e});
    mm0_w = make("mm.0.weight", GGML_TYPE_F16, {e, p.n_proj});
    mm0_b = make("mm.0.bias", GGML_TYPE_F32, {p.n_proj});
    mm2_w = make("mm.2.weight", GGML_TYPE_F16, {p.n_proj, p.n_proj});
    mm2_b = make("mm.2.bias", GGML_TYPE_F32, {p.n_proj});
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
  }

  void load(uint32_t seed) {
    for (ggml_tensor *t = ggml_get_first_tensor(ctx_.get()); t; t = ggml_get_next_tensor(ctx_.get(), t)) {
      std::vector<float> v(ggml_nelements(t));
      for (float &x : v) {
        seed = seed * 22695477u + 1u;
        x = (static_cast<float>((seed >> 10) & 0x3fff) / 16384.0f - 0.5f) * 0.25f;
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

  ggml_tensor *patch_w, *pos_embd, *ln1_w, *ln1_b, *qkv_w, *out_w, *ln2_w, *ln2_b, *ffn_up, *ffn_down;
  ggml_tensor *mm0_w, *mm0_b, *mm2_w, *mm2_b;
  const ClipParams &params() const { return p_; }
  ggml_backend_t backend() const { return backend_; }

 private:
  ggml_tensor *make(const char *name, ggml_type type, std::vector<int64_t> ne) {
    ne.resize(4, 1);
    ggml_tensor *t = ggml_new_tensor_4d(ctx_.get(), type, ne[0], ne[1], ne[2], ne[3]);
    ggml_set_name(t, name);
    return t;
  }

  ClipParams p_;
  ggml_backend_t backend_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
};

class ClipEncoder {
 public:
  explicit ClipEncoder(const ClipModel &m) : m_(m) {
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.backend())));
  }

  // image: [W, H, 3] planar floats in [0, 1]; returns n_proj x n_patches embeddings
  std::vector<float> encode(const std::vector<float> &image) {
    const ClipParams &p = m_.params();
    ggml_init_params ip = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), nullptr, true};
    ctx_.reset(ggml_init(ip));
    ggml_context *ctx = ctx_.get();
    ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_tensor *img = ggml_new_tensor_4d(ctx, GGML_TYPE_F32, p.image_size, p.image_size, 3, 1);
    ggml_set_input(img);

    const int np = p.n_patches(), e = p.n_embd, hd = e / p.n_head;
    ggml_tensor *x = ggml_conv_2d(ctx, m_.patch_w, img, p.patch_size, p.patch_size, 0, 0, 1, 1);
    x = ggml_cont(ctx, ggml_transpose(ctx, ggml_reshape_2d(ctx, x, np, e)));
    x = ggml_add(ctx, x, m_.pos_embd);

    auto ln = [ctx](ggml_tensor *t, ggml_tensor *w, ggml_tensor *b) { return ggml_add(ctx, ggml_mul(ctx, ggml_norm(ctx, t, 1e-6f), w), b); };
    ggml_tensor *qkv = ggml_mul_mat(ctx, m_.qkv_w, ln(x, m_.ln1_w, m_.ln1_b));
    auto head_view = [&](int which) {
      ggml_tensor *v = ggml_view_3d(ctx, qkv, hd, p.n_head, np, hd * sizeof(float), qkv->nb[1], which * e * sizeof(float));
      return ggml_cont(ctx, ggml_permute(ctx, v, 0, 2, 1, 3));  // [hd, np, n_head]
    };
    ggml_tensor *q = head_view(0), *k = head_view(1), *v = head_view(2);
    ggml_tensor *kq = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, k, q), nullptr, 1.0f / std::sqrt(static_cast<float>(hd)), 0.0f);
    ggml_tensor *vt = ggml_cont(ctx, ggml_transpose(ctx, v));
    ggml_tensor *o = ggml_cont(ctx, ggml_permute(ctx, ggml_mul_mat(ctx, vt, kq), 0, 2, 1, 3));
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, m_.out_w, ggml_reshape_2d(ctx, o, e, np)));
    ggml_tensor *ff = ggml_gelu(ctx, ggml_mul_mat(ctx, m_.ffn_up, ln(x, m_.ln2_w, m_.ln2_b)));
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, m_.ffn_down, ff));

    ggml_tensor *embd = ggml_gelu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, m_.mm0_w, x), m_.mm0_b));
    embd = ggml_add(ctx, ggml_mul_mat(ctx, m_.mm2_w, embd), m_.mm2_b);
    ggml_set_name(embd, "image_embd");
    ggml_set_output(embd);
    ggml_build_forward_expand(gf, embd);

    if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) return {};
    ggml_backend_tensor_set(img, image.data(), 0, ggml_nbytes(img));
    if (ggml_backend_graph_compute(m_.backend(), gf) != GGML_STATUS_SUCCESS) return {};
    if (p.verbose) log_tensor_head("clip:", embd, 6);
    std::vector<float> out(ggml_nelements(embd));
    ggml_backend_tensor_get(embd, out.data(), 0, ggml_nbytes(embd));
    return out;
  }

 private:
  const ClipModel &m_;
  ggml_gallocr_ptr galloc_;
  ggml_context_ptr ctx_;
};

std::vector<float> checkerboard(int size, int phase) {
  std::vector<float> img(static_cast<size_t>(size) * size * 3);
  for (int c = 0; c < 3; c++)
    for (int y = 0; y < size; y++)
      for (int x = 0; x < size; x++)
        img[(static_cast<size_t>(c) * size + y) * size + x] = ((x / 2 + y / 2 + phase + c) % 2) ? 0.9f : 0.1f;
  return img;
}

}  // namespace

int main(int argc, char **argv) {
  const ClipParams params = parse(argc, argv);
  ggml_backend_ptr backend(params.use_gpu ? ggml_backend_cuda_init(0) : ggml_backend_cpu_init());
  if (!backend) return 1;
  std::printf("clip: using %s\n", ggml_backend_name(backend.get()));

  ClipModel model(params, backend.get());
  model.load(31337);
  ClipEncoder encoder(model);
  for (int phase = 0; phase < 2; phase++) {
    std::vector<float> embd = encoder.encode(checkerboard(params.image_size, phase));
    if (embd.empty()) return 1;
    double s = 0;
    for (float v : embd) s += v;
    std::printf("image %d: %d patches x %d, sum %.4f\n", phase, params.n_patches(), params.n_proj, s);
  }
  return 0;
}
