// whisper.cpp-style greedy decoder: encoder output and decoder weights on the GPU, a graph
// rebuilt per token and allocated by a gallocr, logits copied to a host std::vector with
// ggml_backend_tensor_get for sampling.
// The mistake: the debugging option --dump-logits writes each step's logits to a file with a
// lambda that reads the graph's logits tensor through ->data, which is GPU memory. Without
// the flag the run is clean.
// run-args: --dump-logits
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kVocab = 48;
constexpr int kState = 24;
constexpr int kAudioCtx = 10;
constexpr int kLayers = 2;

struct decoder_layer {
    ggml_tensor *attn_q, *cross_k, *cross_v, *mlp;
};

struct whisper_decoder {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *token_embd = nullptr;
    ggml_tensor *enc_out = nullptr; // [kState, kAudioCtx], written once by the "encoder"
    std::vector<decoder_layer> layers;
};

void init_decoder(whisper_decoder &d, ggml_backend_t backend) {
    ggml_init_params ip = {ggml_tensor_overhead() * (2 + 4 * kLayers), nullptr, true};
    d.ctx.reset(ggml_init(ip));
    ggml_context *ctx = d.ctx.get();
    d.token_embd = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kState, kVocab);
    d.enc_out = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kState, kAudioCtx);
    for (int il = 0; il < kLayers; il++) {
        decoder_layer l;
        l.attn_q = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kState, kState);
        l.cross_k = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kState, kState);
        l.cross_v = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kState, kState);
        l.mlp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kState, kState);
        d.layers.push_back(l);
    }
    d.buf.reset(ggml_backend_alloc_ctx_tensors(ctx, backend));
    int seed = 0;
    for (ggml_tensor *t = ggml_get_first_tensor(ctx); t; t = ggml_get_next_tensor(ctx, t)) {
        std::vector<float> v(ggml_nelements(t));
        for (size_t i = 0; i < v.size(); i++) v[i] = (float)((int)((i * 13 + seed) % 21) - 10) / 40.0f;
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
        seed += 3;
    }
}

ggml_cgraph *build_step(ggml_context *ctx, const whisper_decoder &d) {
    ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_tensor *tok = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
    ggml_set_name(tok, "token");
    ggml_set_input(tok);
    ggml_tensor *x = ggml_get_rows(ctx, d.token_embd, tok);
    for (const decoder_layer &l : d.layers) {
        ggml_tensor *q = ggml_mul_mat(ctx, l.attn_q, x);
        ggml_tensor *k = ggml_mul_mat(ctx, l.cross_k, d.enc_out);                   // [kState, kAudioCtx]
        ggml_tensor *v = ggml_cont(ctx, ggml_transpose(ctx, ggml_mul_mat(ctx, l.cross_v, d.enc_out)));
        ggml_tensor *kq = ggml_soft_max(ctx, ggml_mul_mat(ctx, k, q));               // [kAudioCtx, 1]
        x = ggml_add(ctx, x, ggml_mul_mat(ctx, v, kq));
        x = ggml_add(ctx, x, ggml_gelu(ctx, ggml_mul_mat(ctx, l.mlp, x)));
    }
    ggml_tensor *logits = ggml_mul_mat(ctx, d.token_embd, x); // tied output
    ggml_set_name(logits, "logits");
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);
    return gf;
}

struct options {
    bool dump_logits = false;
    int max_tokens = 5;
};

options parse(int argc, char **argv) {
    options o;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--dump-logits") == 0) o.dump_logits = true;
        else if (std::strcmp(argv[i], "-n") == 0 && i + 1 < argc) o.max_tokens = std::atoi(argv[++i]);
    }
    return o;
}

} // namespace

int main(int argc, char **argv) {
    options opt = parse(argc, argv);
    ggml_backend_ptr backend(ggml_backend_cuda_init(0));
    if (!backend) return 1;
    whisper_decoder dec;
    init_decoder(dec, backend.get());
    ggml_gallocr_ptr galloc(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend.get())));

    std::unique_ptr<FILE, int (*)(FILE *)> dump(nullptr, &std::fclose);
    std::function<void(int, const ggml_tensor *)> on_logits = [](int, const ggml_tensor *) {};
    if (opt.dump_logits) {
        dump.reset(std::fopen("logits.txt", "w"));
        if (!dump) return 1;
        on_logits = [&dump](int step, const ggml_tensor *t) {
            const float *p = (const float *)t->data;
            std::fprintf(dump.get(), "step %d:", step);
            for (int64_t i = 0; i < ggml_nelements(t); i++) std::fprintf(dump.get(), " %.4f", p[i]); // expect-warning: ggml-host-access
            std::fprintf(dump.get(), "\n");
        };
    }

    std::vector<int32_t> tokens = {1};
    std::vector<float> logits(kVocab);
    for (int step = 0; step < opt.max_tokens; step++) {
        ggml_init_params ip = {ggml_tensor_overhead() * 128 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = build_step(ctx.get(), dec);
        if (!ggml_gallocr_alloc_graph(galloc.get(), gf)) return 1;
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "token"), &tokens.back(), 0, sizeof(int32_t));
        ggml_backend_graph_compute(backend.get(), gf);

        ggml_tensor *out = ggml_graph_get_tensor(gf, "logits");
        on_logits(step, out);
        ggml_backend_tensor_get(out, logits.data(), 0, ggml_nbytes(out));
        int best = 0;
        for (int i = 1; i < kVocab; i++)
            if (logits[i] > logits[best]) best = i;
        tokens.push_back(best);
    }
    std::printf("tokens:");
    for (int32_t t : tokens) std::printf(" %d", t);
    std::printf("\n");
    return 0;
}
