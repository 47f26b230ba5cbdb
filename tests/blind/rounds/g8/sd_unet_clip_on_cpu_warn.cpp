// stable-diffusion style sampling: a CLIP-like text encoder turns the prompt tokens into the
// conditioning, then a few Euler steps run a UNet block (timestep embedding + cross-attention
// on the conditioning) over the latent. The UNet runs on the main GPU; --clip-on-cpu keeps the
// text encoder on the CPU to save VRAM, as stable-diffusion.cpp offers.
// run-args: --clip-on-cpu --steps 3
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml.h"

namespace sd {

constexpr int kVocab = 48, kText = 16, kTokens = 6;
constexpr int kLatC = 4, kLatHW = 16, kAttn = 8, kTDim = 8;

struct Options {
    bool clip_on_cpu = false;
    int steps = 4;
};

void fill(ggml_tensor *t, float scale, float freq) {
    std::vector<float> v(ggml_nelements(t));
    for (size_t i = 0; i < v.size(); i++) v[i] = scale * std::sin(freq * (float)(i + 1));
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

// a module: its weights in one context and buffer on one backend, and its own graph allocator
struct Module {
    ggml_backend_t backend = nullptr;
    ggml_context_ptr ctx_w;
    ggml_backend_buffer_ptr buf_w;
    ggml_gallocr_ptr galloc;
    void alloc(ggml_backend_t be) {
        backend = be;
        buf_w.reset(ggml_backend_alloc_ctx_tensors(ctx_w.get(), be));
        galloc.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(be)));
    }
    static ggml_context *weights_ctx(ggml_context_ptr &c, int n) {
        ggml_init_params ip = {ggml_tensor_overhead() * (size_t)n, nullptr, true};
        c.reset(ggml_init(ip));
        return c.get();
    }
};

class TextEncoder : public Module {
  public:
    void load(ggml_backend_t be) {
        ggml_context *c = weights_ctx(ctx_w, 2);
        tok_embd_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kText, kVocab);
        proj_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kText, kText);
        alloc(be);
        fill(tok_embd_, 1.0f, 0.23f);
        fill(proj_, 0.3f, 0.41f);
    }
    // the conditioning [kText, kTokens], valid until the next encode
    ggml_tensor *encode(const std::vector<int32_t> &tokens) {
        ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx_.get());
        ggml_tensor *inp = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_I32, (int64_t)tokens.size());
        ggml_set_input(inp);
        ggml_tensor *h = ggml_get_rows(ctx_.get(), tok_embd_, inp);
        h = ggml_norm(ctx_.get(), ggml_add(ctx_.get(), h, ggml_gelu(ctx_.get(), ggml_mul_mat(ctx_.get(), proj_, h))), 1e-5f);
        ggml_set_name(h, "cond");
        ggml_set_output(h);
        ggml_build_forward_expand(gf, h);
        ggml_gallocr_alloc_graph(galloc.get(), gf);
        ggml_backend_tensor_set(inp, tokens.data(), 0, tokens.size() * sizeof(int32_t));
        ggml_backend_graph_compute(backend, gf);
        return h;
    }

  private:
    ggml_tensor *tok_embd_ = nullptr, *proj_ = nullptr;
    ggml_context_ptr ctx_;
};

class UNetBlock : public Module {
  public:
    void load(ggml_backend_t be) {
        ggml_context *c = weights_ctx(ctx_w, 5);
        wq_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kLatC, kAttn);
        wk_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kText, kAttn);
        wv_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kText, kAttn);
        wo_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kAttn, kLatC);
        wt_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kTDim, kLatC);
        alloc(be);
        for (ggml_tensor *t : {wq_, wk_, wv_, wo_, wt_}) fill(t, 0.35f, 0.19f + 0.01f * (float)ggml_nelements(t));
    }
    // predicted noise for latent x at timestep t, given the conditioning
    std::vector<float> predict(const std::vector<float> &x, float t, ggml_tensor *cond) {
        ggml_init_params ip = {ggml_tensor_overhead() * 40 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_context *c = ctx.get();
        ggml_cgraph *gf = ggml_new_graph(c);
        ggml_tensor *lat = ggml_new_tensor_2d(c, GGML_TYPE_F32, kLatC, kLatHW);
        ggml_tensor *ts = ggml_new_tensor_1d(c, GGML_TYPE_F32, 1);
        ggml_set_input(lat);
        ggml_set_input(ts);
        ggml_tensor *temb = ggml_mul_mat(c, wt_, ggml_timestep_embedding(c, ts, kTDim, 10000)); // [C, 1]
        ggml_tensor *h = ggml_add(c, lat, temb);
        ggml_tensor *q = ggml_mul_mat(c, wq_, h);                                  // [A, HW]
        ggml_tensor *k = ggml_mul_mat(c, wk_, cond);                               // [A, T]
        ggml_tensor *v = ggml_cont(c, ggml_transpose(c, ggml_mul_mat(c, wv_, cond))); // [T, A]
        ggml_tensor *kq = ggml_soft_max_ext(c, ggml_mul_mat(c, k, q), nullptr, 1.0f / std::sqrt((float)kAttn), 0.0f);
        ggml_tensor *attn = ggml_mul_mat(c, v, kq);                                // [A, HW]
        ggml_tensor *eps = ggml_mul_mat(c, wo_, attn);                             // [C, HW]
        ggml_set_output(eps);
        ggml_build_forward_expand(gf, eps);
        ggml_gallocr_alloc_graph(galloc.get(), gf);
        ggml_backend_tensor_set(lat, x.data(), 0, ggml_nbytes(lat));
        ggml_backend_tensor_set(ts, &t, 0, sizeof t);
        if (ggml_backend_graph_compute(backend, gf) != GGML_STATUS_SUCCESS) return {}; // expect-warning: ggml-backend-mismatch
        std::vector<float> out(ggml_nelements(eps));
        ggml_backend_tensor_get(eps, out.data(), 0, ggml_nbytes(eps));
        return out;
    }

  private:
    ggml_tensor *wq_ = nullptr, *wk_ = nullptr, *wv_ = nullptr, *wo_ = nullptr, *wt_ = nullptr;
};

} // namespace sd

int main(int argc, char **argv) {
    sd::Options opt;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--clip-on-cpu") opt.clip_on_cpu = true;
        else if (a == "--steps" && i + 1 < argc) opt.steps = std::atoi(argv[++i]);
    }
    if (opt.steps < 1 || opt.steps > 50) opt.steps = 4;

    ggml_backend_ptr main_backend(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr));
    if (!main_backend) main_backend.reset(ggml_backend_cpu_init());
    ggml_backend_ptr cpu_backend(ggml_backend_cpu_init());

    sd::TextEncoder clip;
    sd::UNetBlock unet;
    clip.load(opt.clip_on_cpu ? cpu_backend.get() : main_backend.get());
    unet.load(main_backend.get());
    std::printf("sd: clip on %s, unet on %s\n", ggml_backend_name(clip.backend), ggml_backend_name(unet.backend));

    std::vector<int32_t> prompt;
    for (int i = 0; i < sd::kTokens; i++) prompt.push_back((i * 11 + 4) % sd::kVocab);
    ggml_tensor *cond = clip.encode(prompt);

    std::vector<float> x((size_t)sd::kLatC * sd::kLatHW);
    for (size_t i = 0; i < x.size(); i++) x[i] = std::cos(1.7f * (float)i);
    for (int s = 0; s < opt.steps; s++) {
        float sigma = 1.0f - (float)s / (float)opt.steps, sigma_next = 1.0f - (float)(s + 1) / (float)opt.steps;
        std::vector<float> eps = unet.predict(x, 999.0f * sigma, cond);
        if (eps.empty()) return 1;
        for (size_t i = 0; i < x.size(); i++) x[i] += (sigma_next - sigma) * eps[i];
    }
    double mean = 0.0;
    for (float v : x) mean += v;
    std::printf("sd: %d steps, latent mean %.5f\n", opt.steps, mean / (double)x.size());
    return 0;
}
