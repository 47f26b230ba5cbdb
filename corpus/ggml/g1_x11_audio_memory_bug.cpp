// corpus/ggml/g1_x11_audio_memory_bug.cpp — from blind round g1 (x11_audio_memory_bug.cpp, labelled by running it on real ggml and the emulated GPU): a streaming audio encoder that keeps a memory of past frames.
// The memory is stored in F16 on the GPU to save space and concatenated with the new F32
// frames (ggml_concat wants one type), and the frame scores are copied out by building a
// std::vector over ggml_get_data's pointer, a host read of GPU memory.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

namespace {

constexpr int kFeat = 6;
constexpr int kMem = 3;
constexpr int kNew = 4;

struct Memory {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * frames = nullptr;  // F16 [kFeat, kMem]
    ggml_tensor * scorer = nullptr;  // F32 [kFeat, 1]
};

std::unique_ptr<Memory> make_memory(ggml_backend_t backend) {
    auto m = std::make_unique<Memory>();
    ggml_init_params p = { ggml_tensor_overhead() * 2, nullptr, true };
    m->ctx.reset(ggml_init(p));
    m->frames = ggml_new_tensor_2d(m->ctx.get(), GGML_TYPE_F16, kFeat, kMem);
    m->scorer = ggml_new_tensor_2d(m->ctx.get(), GGML_TYPE_F32, kFeat, 1);
    ggml_set_name(m->frames, "memory");
    m->buf.reset(ggml_backend_alloc_ctx_tensors(m->ctx.get(), backend));
    std::vector<ggml_fp16_t> h(kFeat * kMem);
    for (size_t i = 0; i < h.size(); ++i) h[i] = ggml_fp32_to_fp16(0.1f * static_cast<float>(i));
    ggml_backend_tensor_set(m->frames, h.data(), 0, ggml_nbytes(m->frames));
    std::vector<float> w(kFeat, 0.5f);
    ggml_backend_tensor_set(m->scorer, w.data(), 0, ggml_nbytes(m->scorer));
    return m;
}

struct StepGraph {
    ggml_context_ptr ctx;
    ggml_cgraph * gf = nullptr;
    ggml_tensor * input = nullptr;
    ggml_tensor * scores = nullptr;
};

StepGraph build(const Memory & mem) {
    StepGraph g;
    ggml_init_params p = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true };
    g.ctx.reset(ggml_init(p));
    ggml_context * c = g.ctx.get();
    g.input = ggml_new_tensor_2d(c, GGML_TYPE_F32, kFeat, kNew);
    ggml_set_input(g.input);
    ggml_tensor * all = ggml_concat(c, mem.frames, g.input, 1); // expect-error: ggml-type-mismatch
    ggml_tensor * normed = ggml_rms_norm(c, all, 1e-6f);
    g.scores = ggml_sigmoid(c, ggml_mul_mat(c, normed, mem.scorer));   // [kMem+kNew, 1]
    ggml_set_output(g.scores);
    g.gf = ggml_new_graph(c);
    ggml_build_forward_expand(g.gf, g.scores);
    return g;
}

// writes the newest kMem frames back into the F16 memory (ggml_cpy converts the type)
void update_memory(ggml_backend_t backend, ggml_gallocr_t ga, const Memory & mem, const std::vector<float> & frames) {
    ggml_init_params p = { ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_tensor * src = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kFeat, kNew);
    ggml_set_input(src);
    ggml_tensor * newest = ggml_view_2d(ctx.get(), src, kFeat, kMem, src->nb[1], (kNew - kMem) * src->nb[1]);
    ggml_cgraph * gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, ggml_cpy(ctx.get(), newest, mem.frames));
    ggml_gallocr_alloc_graph(ga, gf);
    ggml_backend_tensor_set(src, frames.data(), 0, ggml_nbytes(src));
    ggml_backend_graph_compute(backend, gf);
}

struct Options {
    int n_chunks = 2;
    float threshold = 0.5f;
};

Options parse_options(int argc, char ** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--chunks") o.n_chunks = std::max(1, std::atoi(argv[i + 1]));
        else if (key == "--threshold") o.threshold = std::strtof(argv[i + 1], nullptr);
    }
    return o;
}

class VoiceStats {
public:
    void add(const std::vector<float> & scores, float threshold) {
        for (float s : scores) {
            frames_++;
            voiced_ += s > threshold;
            max_ = std::max(max_, s);
        }
    }
    void print() const {
        std::printf("total: %d of %d frames voiced, max score %.3f\n", voiced_, frames_, max_);
    }

private:
    int frames_ = 0;
    int voiced_ = 0;
    float max_ = 0.0f;
};

} // namespace

int main(int argc, char ** argv) {
    const Options opt = parse_options(argc, argv);
    VoiceStats stats;
    ggml_backend_ptr backend(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr));
    if (!backend) return 1;
    std::unique_ptr<Memory> mem = make_memory(backend.get());
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend.get())));

    for (int chunk = 0; chunk < opt.n_chunks; ++chunk) {
        StepGraph g = build(*mem);
        ggml_gallocr_alloc_graph(ga.get(), g.gf);
        std::vector<float> frames(kFeat * kNew);
        for (size_t i = 0; i < frames.size(); ++i) frames[i] = std::cos(0.3f * static_cast<float>(i + chunk));
        ggml_backend_tensor_set(g.input, frames.data(), 0, ggml_nbytes(g.input));
        ggml_backend_graph_compute(backend.get(), g.gf);

        const float * p = static_cast<const float *>(ggml_get_data(g.scores));
        std::vector<float> scores(p, p + ggml_nelements(g.scores)); // expect-error: ggml-host-access
        int voiced = 0;
        for (float s : scores) voiced += s > opt.threshold;
        std::printf("chunk %d: %d of %zu frames voiced\n", chunk, voiced, scores.size());
        stats.add(scores, opt.threshold);
        update_memory(backend.get(), ga.get(), *mem, frames);
    }
    stats.print();
    return 0;
}
