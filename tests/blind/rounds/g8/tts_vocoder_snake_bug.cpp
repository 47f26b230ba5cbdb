// TTS vocoder tail (BigVGAN-like): mel frames are upsampled to samples, mixed by per-block
// channel projections and passed through Snake activations x + sin^2(a*x)/a with learned
// per-channel alphas; the last projection gives one waveform channel. Weights are loaded into
// a GPU buffer; the small per-channel alphas are kept in a host buffer of their own so the
// loader can write them in place.
// run-args: --main-gpu 1 --frames 6
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace tts {

constexpr int kMel = 8;
constexpr int kChannels = 16;
constexpr int kBlocks = 2;
constexpr int kUpsample = 4;

struct Block {
    ggml_tensor *proj = nullptr; // [C, C]
    ggml_tensor *alpha = nullptr; // [C]
};

class Vocoder {
  public:
    bool load(int main_gpu) {
        backend_.reset(ggml_backend_cuda_init(main_gpu));
        if (!backend_) return false;
        ggml_init_params ip = {ggml_tensor_overhead() * 8, nullptr, true};
        ctx_w_.reset(ggml_init(ip));
        ctx_aux_.reset(ggml_init(ip));
        conv_pre_ = named(ggml_new_tensor_2d(ctx_w_.get(), GGML_TYPE_F32, kMel, kChannels), "conv_pre.weight");
        conv_post_ = named(ggml_new_tensor_2d(ctx_w_.get(), GGML_TYPE_F32, kChannels, 1), "conv_post.weight");
        for (int b = 0; b < kBlocks; b++) {
            blocks_[b].proj = named(ggml_new_tensor_2d(ctx_w_.get(), GGML_TYPE_F32, kChannels, kChannels),
                                    "resblock." + std::to_string(b) + ".proj");
            blocks_[b].alpha = named(ggml_new_tensor_1d(ctx_aux_.get(), GGML_TYPE_F32, kChannels),
                                     "resblock." + std::to_string(b) + ".alpha");
        }
        buf_w_.reset(ggml_backend_alloc_ctx_tensors(ctx_w_.get(), backend_.get()));
        buf_aux_.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx_aux_.get(), ggml_backend_cpu_buffer_type()));
        if (!buf_w_ || !buf_aux_) return false;
        for (auto &kv : by_name_) load_tensor(kv.second);
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
        return true;
    }

    std::vector<float> synthesize(const std::vector<float> &mel, int n_frames) {
        ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *inp = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kMel, n_frames);
        ggml_set_input(inp);
        ggml_tensor *x = ggml_mul_mat(ctx.get(), conv_pre_, inp);              // [C, T]
        x = upsample(ctx.get(), x, n_frames);                                   // [C, T*R]
        for (const Block &b : blocks_) x = ggml_add(ctx.get(), x, ggml_mul_mat(ctx.get(), b.proj, snake(ctx.get(), x, b.alpha)));
        ggml_tensor *wav = ggml_tanh(ctx.get(), ggml_mul_mat(ctx.get(), conv_post_, x)); // [1, T*R]
        ggml_set_output(wav);
        ggml_build_forward_expand(gf, wav);
        ggml_gallocr_alloc_graph(galloc_.get(), gf);
        ggml_backend_tensor_set(inp, mel.data(), 0, ggml_nbytes(inp));
        compute(gf);
        std::vector<float> out(ggml_nelements(wav));
        ggml_backend_tensor_get(wav, out.data(), 0, ggml_nbytes(wav));
        return out;
    }

  private:
    ggml_tensor *named(ggml_tensor *t, const std::string &name) {
        ggml_set_name(t, name.c_str());
        by_name_[name] = t;
        return t;
    }

    static void load_tensor(ggml_tensor *t) {
        std::vector<float> v(ggml_nelements(t));
        const bool is_alpha = std::strstr(t->name, ".alpha") != nullptr;
        for (size_t i = 0; i < v.size(); i++)
            v[i] = is_alpha ? 0.5f + 0.05f * (float)i : 0.3f * std::sin(0.21f * (float)(i + 1) + (float)std::strlen(t->name));
        if (ggml_backend_buffer_is_host(t->buffer)) std::memcpy(t->data, v.data(), ggml_nbytes(t));
        else ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
    }

    // nearest upsampling along time: [C, T] -> [C, T*R]
    static ggml_tensor *upsample(ggml_context *ctx, ggml_tensor *x, int n_frames) {
        ggml_tensor *x3 = ggml_reshape_3d(ctx, x, kChannels, 1, n_frames);
        ggml_tensor *shape = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, kChannels, kUpsample, n_frames);
        return ggml_reshape_2d(ctx, ggml_repeat(ctx, x3, shape), kChannels, kUpsample * n_frames);
    }

    // x + sin(a x)^2 / a, per channel
    static ggml_tensor *snake(ggml_context *ctx, ggml_tensor *x, ggml_tensor *alpha) {
        ggml_tensor *s = ggml_sqr(ctx, ggml_sin(ctx, ggml_mul(ctx, x, alpha)));
        return ggml_add(ctx, x, ggml_div(ctx, s, alpha));
    }

    void compute(ggml_cgraph *gf) {
        if (ggml_backend_graph_compute(backend_.get(), gf) != GGML_STATUS_SUCCESS) { // expect-error: ggml-backend-mismatch
            std::fprintf(stderr, "vocoder: compute failed\n");
            std::exit(1);
        }
    }

    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_w_, ctx_aux_;
    ggml_backend_buffer_ptr buf_w_, buf_aux_;
    ggml_gallocr_ptr galloc_;
    std::map<std::string, ggml_tensor *> by_name_;
    ggml_tensor *conv_pre_ = nullptr, *conv_post_ = nullptr;
    Block blocks_[kBlocks];
};

} // namespace tts

int main(int argc, char **argv) {
    int main_gpu = 0, n_frames = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--main-gpu") == 0) main_gpu = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--frames") == 0) n_frames = std::atoi(argv[i + 1]);
    }
    if (n_frames < 1 || n_frames > 64) n_frames = 5;
    tts::Vocoder voc;
    if (!voc.load(main_gpu)) {
        std::fprintf(stderr, "vocoder: cannot load on GPU %d\n", main_gpu);
        return 1;
    }
    std::vector<float> mel((size_t)tts::kMel * n_frames);
    for (size_t i = 0; i < mel.size(); i++) mel[i] = std::log1p((float)(i % 11)) - 1.0f;
    std::vector<float> wav = voc.synthesize(mel, n_frames);
    double rms = 0.0;
    for (float s : wav) rms += (double)s * s;
    std::printf("vocoder: %d frames -> %zu samples, rms %.4f\n", n_frames, wav.size(), std::sqrt(rms / (double)wav.size()));
    return 0;
}
