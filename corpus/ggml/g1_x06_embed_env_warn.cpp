// corpus/ggml/g1_x06_embed_env_warn.cpp — from blind round g1 (x06_embed_env_warn.cpp, labelled by running it on real ggml and the emulated GPU): sentence embeddings compared by cosine similarity on the host.
// EMBED_GPU=1 puts the encoder (weights and compute buffers) on the first GPU device; the
// read-back lambda and the norm helper still treat tensor memory as host memory, which only
// the CPU path makes true.
// run-env: EMBED_GPU=1
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

namespace {

constexpr int kVocab = 64;
constexpr int kEmbd = 12;

struct Encoder {
    ggml_backend_ptr backend;
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * tok = nullptr;
    ggml_tensor * proj = nullptr;
};

ggml_backend_dev_t choose_device() {
    const char * v = std::getenv("EMBED_GPU");
    if (v != nullptr && std::string(v) == "1") {
        if (ggml_backend_dev_t d = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU)) return d;
    }
    return ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}

void encoder_load(Encoder & e, ggml_backend_dev_t dev) {
    e.backend.reset(ggml_backend_dev_init(dev, nullptr));
    ggml_init_params p = { ggml_tensor_overhead() * 2, nullptr, true };
    e.ctx.reset(ggml_init(p));
    e.tok = ggml_new_tensor_2d(e.ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);
    e.proj = ggml_new_tensor_2d(e.ctx.get(), GGML_TYPE_F32, kEmbd, kEmbd);
    e.buf.reset(ggml_backend_alloc_ctx_tensors_from_buft(e.ctx.get(), ggml_backend_dev_buffer_type(dev)));
    std::vector<float> t(kEmbd * kVocab);
    for (size_t i = 0; i < t.size(); ++i) t[i] = std::sin(0.7f * static_cast<float>(i)) * std::cos(0.03f * static_cast<float>(i));
    ggml_backend_tensor_set(e.tok, t.data(), 0, ggml_nbytes(e.tok));
    ggml_backend_tensor_set(e.proj, t.data(), 0, ggml_nbytes(e.proj));
}

std::vector<int32_t> tokenize(const std::string & s) {
    std::vector<int32_t> ids;
    for (unsigned char ch : s) {
        if (ch != ' ') ids.push_back(static_cast<int32_t>(ch % kVocab));
    }
    return ids;
}

float l2norm(const ggml_tensor * v) {
    float s = 0.0f;
    for (int i = 0; i < kEmbd; ++i) {
        const float x = ggml_get_f32_nd(v, i, 0, 0, 0); // expect-warning: ggml-host-access
        s += x * x;
    }
    return std::sqrt(s);
}

std::vector<float> embed(const Encoder & e, const std::string & text, float * norm_out) {
    const std::vector<int32_t> ids = tokenize(text);
    ggml_init_params p = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_tensor * in = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, static_cast<int64_t>(ids.size()));
    ggml_set_input(in);
    ggml_tensor * rows = ggml_get_rows(ctx.get(), e.tok, in);                       // [kEmbd, n]
    ggml_tensor * h = ggml_mul_mat(ctx.get(), e.proj, rows);
    ggml_tensor * pooled = ggml_scale(ctx.get(), ggml_sum_rows(ctx.get(), ggml_cont(ctx.get(), ggml_transpose(ctx.get(), h))), 1.0f / static_cast<float>(ids.size()));
    ggml_set_output(pooled);
    ggml_cgraph * gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, pooled);

    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(e.backend.get())));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_backend_tensor_set(in, ids.data(), 0, ggml_nbytes(in));
    ggml_backend_graph_compute(e.backend.get(), gf);

    auto read = [](const ggml_tensor * t) {
        std::vector<float> v(static_cast<size_t>(ggml_nelements(t)));
        std::memcpy(v.data(), t->data, ggml_nbytes(t)); // expect-warning: ggml-host-access
        return v;
    };
    std::vector<float> out = read(pooled);
    *norm_out = l2norm(pooled);
    return out;
}

} // namespace

int main() {
    Encoder enc;
    ggml_backend_dev_t dev = choose_device();
    encoder_load(enc, dev);
    std::printf("encoder on %s\n", ggml_backend_dev_name(dev));

    const std::vector<std::string> docs = { "ggml runs tensors", "tensors run on ggml", "the cat sat" };
    std::vector<std::vector<float>> vecs;
    std::vector<float> norms;
    for (const auto & d : docs) {
        float n = 0.0f;
        vecs.push_back(embed(enc, d, &n));
        norms.push_back(n);
    }
    for (size_t i = 0; i < docs.size(); ++i) {
        for (size_t j = i + 1; j < docs.size(); ++j) {
            float dot = 0.0f;
            for (int k = 0; k < kEmbd; ++k) dot += vecs[i][k] * vecs[j][k];
            std::printf("sim(%zu,%zu) = %.3f\n", i, j, dot / (norms[i] * norms[j] + 1e-9f));
        }
    }
    return 0;
}
