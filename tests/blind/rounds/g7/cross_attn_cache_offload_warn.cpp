// run-args: --cache-device CPU --steps 3
//
// Encoder-decoder (whisper/T5 style): the cross-attention K/V of the encoder output are
// computed once and kept in a static cache for every decoder step. --cache-device NAME puts
// that cache on another device ("offload to save VRAM"); the default keeps it with the model.
// The decoder steps are computed on the model's backend.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kD = 16;
constexpr int kSrc = 10;
constexpr int kVocab = 24;

struct Options {
    std::string cache_device;
    int steps = 4;
};

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--cache-device")) o.cache_device = argv[i + 1];
        else if (!std::strcmp(argv[i], "--steps")) o.steps = std::atoi(argv[i + 1]);
    }
    if (o.steps < 1) o.steps = 1;
    return o;
}

ggml_context *new_meta_ctx(size_t n_tensors, bool graph) {
    ggml_init_params ip = { ggml_tensor_overhead() * n_tensors + (graph ? ggml_graph_overhead() : 0), nullptr, true };
    return ggml_init(ip);
}

void fill(ggml_tensor *t, float amp) {
    std::vector<float> v(ggml_nelements(t));
    for (size_t i = 0; i < v.size(); i++) v[i] = amp * std::sin(0.19f * (float) i + amp);
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

class Seq2Seq {
public:
    Seq2Seq(ggml_backend_dev_t model_dev, ggml_backend_dev_t cache_dev) {
        backend_.reset(ggml_backend_dev_init(model_dev, nullptr));
        wctx_.reset(new_meta_ctx(8, false));
        enc_w_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kD, kD);
        xk_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kD, kD);
        xv_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kD, kD);
        xq_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kD, kD);
        embd_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kD, kVocab);
        wbuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(wctx_.get(), ggml_backend_dev_buffer_type(model_dev)));
        if (!wbuf_) throw std::runtime_error("weights");
        for (ggml_tensor *t : { enc_w_, xk_, xv_, xq_, embd_ }) fill(t, 0.3f);

        cctx_.reset(new_meta_ctx(2, false));
        cross_k_ = ggml_new_tensor_2d(cctx_.get(), GGML_TYPE_F32, kD, kSrc);
        cross_v_ = ggml_new_tensor_2d(cctx_.get(), GGML_TYPE_F32, kD, kSrc);
        cbuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(cctx_.get(), ggml_backend_dev_buffer_type(cache_dev)));
        if (!cbuf_) throw std::runtime_error("cross cache");
        alloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    }

    void encode(const std::vector<float> &src) {
        ggml_context_ptr ctx(new_meta_ctx(16, true));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *x = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kD, kSrc);
        ggml_set_input(x);
        ggml_tensor *h = ggml_gelu(ctx.get(), ggml_mul_mat(ctx.get(), enc_w_, x));
        ggml_tensor *k = ggml_mul_mat(ctx.get(), xk_, h);
        ggml_tensor *v = ggml_mul_mat(ctx.get(), xv_, h);
        ggml_set_output(k);
        ggml_set_output(v);
        ggml_build_forward_expand(gf, k);
        ggml_build_forward_expand(gf, v);
        if (!ggml_gallocr_alloc_graph(alloc_.get(), gf)) throw std::runtime_error("encode alloc");
        ggml_backend_tensor_set(x, src.data(), 0, ggml_nbytes(x));
        ggml_backend_graph_compute(backend_.get(), gf);
        ggml_backend_tensor_copy(k, cross_k_);
        ggml_backend_tensor_copy(v, cross_v_);
    }

    int step(int token) {
        ggml_context_ptr ctx(new_meta_ctx(32, true));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *tok = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, 1);
        ggml_set_input(tok);
        ggml_tensor *x = ggml_get_rows(ctx.get(), embd_, tok);                    // [kD, 1]
        ggml_tensor *q = ggml_mul_mat(ctx.get(), xq_, x);
        ggml_tensor *att = ggml_soft_max(ctx.get(), ggml_scale(ctx.get(), ggml_mul_mat(ctx.get(), cross_k_, q), 0.25f)); // [kSrc, 1]
        ggml_tensor *vt = ggml_cont(ctx.get(), ggml_transpose(ctx.get(), cross_v_)); // [kSrc, kD]
        ggml_tensor *ctxv = ggml_mul_mat(ctx.get(), vt, att);                       // [kD, 1]
        ggml_tensor *logits = ggml_mul_mat(ctx.get(), embd_, ggml_add(ctx.get(), x, ctxv));
        ggml_tensor *next = ggml_argmax(ctx.get(), logits);
        ggml_set_output(next);
        ggml_build_forward_expand(gf, next);
        if (!ggml_gallocr_alloc_graph(alloc_.get(), gf)) throw std::runtime_error("step alloc");
        ggml_backend_tensor_set(tok, &token, 0, sizeof token);
        if (ggml_backend_graph_compute(backend_.get(), gf) != GGML_STATUS_SUCCESS) { // expect-warning: ggml-backend-mismatch
            throw std::runtime_error("step compute");
        }
        int32_t out = 0;
        ggml_backend_tensor_get(next, &out, 0, sizeof out);
        return out;
    }

    const char *cache_buffer() const { return ggml_backend_buffer_name(cbuf_.get()); }

private:
    ggml_backend_ptr backend_;
    ggml_context_ptr wctx_, cctx_;
    ggml_backend_buffer_ptr wbuf_, cbuf_;
    ggml_gallocr_ptr alloc_;
    ggml_tensor *enc_w_ = nullptr, *xk_ = nullptr, *xv_ = nullptr, *xq_ = nullptr, *embd_ = nullptr;
    ggml_tensor *cross_k_ = nullptr, *cross_v_ = nullptr;
};

} // namespace

int main(int argc, char **argv) {
    Options opt = parse(argc, argv);
    ggml_backend_dev_t model_dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!model_dev) model_dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    ggml_backend_dev_t cache_dev = model_dev;
    if (!opt.cache_device.empty()) {
        cache_dev = ggml_backend_dev_by_name(opt.cache_device.c_str());
        if (!cache_dev) {
            std::fprintf(stderr, "unknown device %s\n", opt.cache_device.c_str());
            return 1;
        }
    }
    try {
        Seq2Seq model(model_dev, cache_dev);
        std::vector<float> src(kD * kSrc);
        for (size_t i = 0; i < src.size(); i++) src[i] = (float) ((i * 13) % 9) / 9.0f - 0.5f;
        model.encode(src);
        std::printf("model on %s, cross cache in %s\n", ggml_backend_dev_name(model_dev), model.cache_buffer());
        int tok = 0;
        for (int s = 0; s < opt.steps; s++) {
            tok = model.step(tok);
            std::printf("%d ", tok);
        }
        std::printf("\n");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
