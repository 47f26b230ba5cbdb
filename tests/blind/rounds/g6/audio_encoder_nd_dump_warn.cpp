// provenance: blind round g6
// run-args: --backend gpu --dump 2
// Audio frame encoder with a --backend flag (cpu|gpu). After each run, --dump N prints the
// first N frames of the output with ggml_get_f32_nd, a debug helper written when the tool
// only ran on the CPU.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct Options {
    std::string backend = "cpu";
    int dump = 0;
    int n_frames = 6;
};

static Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        if (k == "--backend") o.backend = argv[i + 1];
        else if (k == "--dump") o.dump = std::atoi(argv[i + 1]);
        else if (k == "--frames") o.n_frames = std::atoi(argv[i + 1]);
    }
    if (o.n_frames < 1 || o.n_frames > 64) o.n_frames = 6;
    return o;
}

class FrameEncoder {
public:
    static constexpr int kMel = 10;
    static constexpr int kHidden = 14;

    explicit FrameEncoder(const Options &opt) {
        if (opt.backend == "gpu") backend_.reset(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr));
        if (!backend_) backend_.reset(ggml_backend_cpu_init());
        ggml_init_params ip = {ggml_tensor_overhead() * 3, nullptr, true};
        ctx_.reset(ggml_init(ip));
        conv_w_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kMel, kHidden);
        conv_b_ = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kHidden);
        ln_ = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kHidden);
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        upload(conv_w_, [](size_t i) { return 0.05f * std::cos((float)i); });
        upload(conv_b_, [](size_t) { return 0.01f; });
        upload(ln_, [](size_t i) { return 1.0f + 0.01f * (float)i; });
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    }

    const char *name() const { return ggml_backend_name(backend_.get()); }

    // Encodes the frames; the output tensor stays valid until the next call.
    ggml_tensor *encode(const std::vector<float> &mel, int n_frames) {
        ggml_init_params gp = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
        graph_ctx_.reset(ggml_init(gp));
        ggml_context *ctx = graph_ctx_.get();
        ggml_cgraph *gf = ggml_new_graph(ctx);
        ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kMel, n_frames);
        ggml_set_input(x);
        ggml_tensor *h = ggml_add(ctx, ggml_mul_mat(ctx, conv_w_, x), conv_b_);
        h = ggml_gelu(ctx, h);
        h = ggml_mul(ctx, ggml_norm(ctx, h, 1e-5f), ln_);
        ggml_set_output(h);
        ggml_build_forward_expand(gf, h);
        ggml_gallocr_alloc_graph(galloc_.get(), gf);
        ggml_backend_tensor_set(x, mel.data(), 0, ggml_nbytes(x));
        ggml_backend_graph_compute(backend_.get(), gf);
        return h;
    }

private:
    template <typename F>
    void upload(ggml_tensor *t, F &&gen) {
        std::vector<float> v((size_t)ggml_nelements(t));
        for (size_t i = 0; i < v.size(); i++) v[i] = gen(i);
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
    }

    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_context_ptr graph_ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr galloc_;
    ggml_tensor *conv_w_ = nullptr, *conv_b_ = nullptr, *ln_ = nullptr;
};

// Running statistics over the encoded frames, computed from host copies only.
class FrameStats {
public:
    void add(const std::vector<float> &frames, int width) {
        for (size_t i = 0; i < frames.size(); i++) {
            size_t c = i % (size_t)width;
            if (sum_.size() < (size_t)width) sum_.resize((size_t)width, 0.0), sq_.resize((size_t)width, 0.0);
            sum_[c] += frames[i];
            sq_[c] += (double)frames[i] * frames[i];
        }
        count_ += frames.size() / (size_t)width;
    }
    void print() const {
        std::printf("per-channel mean/std over %zu frames:\n", count_);
        for (size_t c = 0; c < sum_.size(); c++) {
            double m = sum_[c] / (double)count_;
            double var = sq_[c] / (double)count_ - m * m;
            std::printf("  ch %2zu: %+.4f / %.4f\n", c, m, std::sqrt(var > 0 ? var : 0));
        }
    }

private:
    std::vector<double> sum_, sq_;
    size_t count_ = 0;
};

static std::vector<float> synth_mel(int n_frames, int chunk) {
    std::vector<float> mel((size_t)FrameEncoder::kMel * n_frames);
    for (int f = 0; f < n_frames; f++)
        for (int m = 0; m < FrameEncoder::kMel; m++) {
            float tone = std::sin(0.5f * (float)(f + chunk * n_frames) + 0.3f * (float)m);
            mel[(size_t)f * FrameEncoder::kMel + m] = std::log1p(std::fabs(tone) * 10.0f);
        }
    return mel;
}

static void dump_frames(const ggml_tensor *out, int n) {
    for (int f = 0; f < n && f < out->ne[1]; f++) {
        std::printf("  frame %d:", f);
        for (int c = 0; c < 4; c++) std::printf(" %+.4f", ggml_get_f32_nd(out, c, f, 0, 0)); // expect-warning: ggml-host-access
        std::printf("\n");
    }
}

int main(int argc, char **argv) {
    Options opt = parse(argc, argv);
    FrameEncoder enc(opt);
    std::printf("encoder on %s\n", enc.name());
    FrameStats stats;
    for (int chunk = 0; chunk < 2; chunk++) {
        std::vector<float> mel = synth_mel(opt.n_frames, chunk);
        ggml_tensor *out = enc.encode(mel, opt.n_frames);
        std::vector<float> host((size_t)ggml_nelements(out));
        ggml_backend_tensor_get(out, host.data(), 0, ggml_nbytes(out));
        double energy = 0;
        for (float v : host) energy += (double)v * v;
        std::printf("chunk %d: energy %.4f\n", chunk, energy);
        stats.add(host, FrameEncoder::kHidden);
        if (opt.dump > 0) dump_frames(out, opt.dump);
    }
    stats.print();
    return 0;
}
