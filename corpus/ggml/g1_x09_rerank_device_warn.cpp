// corpus/ggml/g1_x09_rerank_device_warn.cpp — from blind round g1 (x09_rerank_device_warn.cpp, labelled by running it on real ggml and the emulated GPU): a reranker: the scoring model runs on the device named by
// `--device cpu|gpu`, and a light re-scoring pass (length penalty plus a learned prior) always
// runs on a CPU backend created for cheap host-side work. The learned prior was loaded with
// the model, so with --device gpu the CPU pass computes on a tensor in GPU memory.
// run-args: --device gpu
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

namespace {

constexpr int kFeat = 8;
constexpr int kCand = 4;

struct Scorer {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * w = nullptr;      // [kFeat, 1]
    ggml_tensor * prior = nullptr;  // [kCand]
};

std::string device_arg(int argc, char ** argv) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--device") == 0) return argv[i + 1];
    }
    return "cpu";
}

ggml_backend_t open_device(const std::string & name) {
    if (name == "gpu") {
        if (ggml_backend_t b = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr)) return b;
        std::fprintf(stderr, "no GPU, using the CPU\n");
    }
    return ggml_backend_cpu_init();
}

void scorer_load(Scorer & s, ggml_backend_t backend) {
    ggml_init_params p = { ggml_tensor_overhead() * 2, nullptr, true };
    s.ctx.reset(ggml_init(p));
    s.w = ggml_new_tensor_2d(s.ctx.get(), GGML_TYPE_F32, kFeat, 1);
    s.prior = ggml_new_tensor_1d(s.ctx.get(), GGML_TYPE_F32, kCand);
    s.buf.reset(ggml_backend_alloc_ctx_tensors(s.ctx.get(), backend));
    const float w[kFeat] = { 0.5f, -0.2f, 0.1f, 0.9f, -0.4f, 0.3f, 0.0f, 0.25f };
    const float prior[kCand] = { 0.0f, 0.1f, -0.1f, 0.05f };
    ggml_backend_tensor_set(s.w, w, 0, sizeof(w));
    ggml_backend_tensor_set(s.prior, prior, 0, sizeof(prior));
}

std::vector<float> model_scores(ggml_backend_t backend, const Scorer & s, const std::vector<float> & feats) {
    ggml_init_params p = { ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_tensor * f = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kFeat, kCand);
    ggml_set_input(f);
    ggml_tensor * sc = ggml_reshape_1d(ctx.get(), ggml_mul_mat(ctx.get(), s.w, f), kCand);
    ggml_set_output(sc);
    ggml_cgraph * gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, sc);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_backend_tensor_set(f, feats.data(), 0, ggml_nbytes(f));
    ggml_backend_graph_compute(backend, gf);
    std::vector<float> out(kCand);
    ggml_backend_tensor_get(sc, out.data(), 0, ggml_nbytes(sc));
    return out;
}

std::vector<float> rescore(ggml_backend_t host, const Scorer & s, const std::vector<float> & scores, const std::vector<float> & lengths) {
    ggml_init_params p = { ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_tensor * sc = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kCand);
    ggml_tensor * len = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kCand);
    ggml_set_input(sc);
    ggml_set_input(len);
    ggml_tensor * pen = ggml_scale(ctx.get(), ggml_log(ctx.get(), len), -0.3f);
    ggml_tensor * final_sc = ggml_soft_max(ctx.get(), ggml_add(ctx.get(), ggml_add(ctx.get(), sc, pen), s.prior));
    ggml_set_output(final_sc);
    ggml_cgraph * gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, final_sc);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_cpu_buffer_type()));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_backend_tensor_set(sc, scores.data(), 0, ggml_nbytes(sc));
    ggml_backend_tensor_set(len, lengths.data(), 0, ggml_nbytes(len));
    ggml_backend_graph_compute(host, gf); // expect-warning: ggml-backend-mismatch
    std::vector<float> out(kCand);
    ggml_backend_tensor_get(final_sc, out.data(), 0, ggml_nbytes(final_sc));
    return out;
}

struct Candidate {
    std::string text;
    float model = 0.0f;
    float final_score = 0.0f;
};

std::vector<Candidate> make_candidates(const std::vector<float> & sc, const std::vector<float> & fin) {
    static const char * texts[kCand] = { "a short answer", "a longer and more careful answer",
                                         "an answer of middling length", "a rambling answer that goes on and on" };
    std::vector<Candidate> out;
    for (int c = 0; c < kCand; ++c) out.push_back({ texts[c], sc[c], fin[c] });
    std::sort(out.begin(), out.end(), [](const Candidate & a, const Candidate & b) { return a.final_score > b.final_score; });
    return out;
}

} // namespace

int main(int argc, char ** argv) {
    ggml_backend_ptr dev(open_device(device_arg(argc, argv)));
    ggml_backend_ptr host(ggml_backend_cpu_init());
    std::printf("scoring on %s, rescoring on %s\n", ggml_backend_name(dev.get()), ggml_backend_name(host.get()));
    Scorer s;
    scorer_load(s, dev.get());

    std::vector<float> feats(kFeat * kCand);
    for (size_t i = 0; i < feats.size(); ++i) feats[i] = std::fmod(0.37f * static_cast<float>(i), 1.0f);
    const std::vector<float> lengths = { 5.0f, 12.0f, 7.0f, 30.0f };
    std::vector<float> sc = model_scores(dev.get(), s, feats);
    std::vector<float> fin = rescore(host.get(), s, sc, lengths);
    for (int c = 0; c < kCand; ++c) std::printf("candidate %d: model %+.3f final %.3f\n", c, sc[c], fin[c]);
    for (const Candidate & c : make_candidates(sc, fin)) std::printf("  %.3f  %s\n", c.final_score, c.text.c_str());
    return 0;
}
