// run-args: --n-tokens 6
//
// A batch decoder whose graph inputs come from a table of named input specs (name -> type,
// shape rule). The token-id entry was copied from the embedding-input entry and kept its
// F32 type, so the embedding lookup gets float "ids". Model on CUDA0.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace lm {

struct HParams {
    int n_vocab = 64;
    int n_embd = 32;
    int n_head = 4;
    int n_layer = 2;
};

struct InputSpec {
    ggml_type type;
    std::function<std::vector<int64_t>(const HParams &, int n_tokens)> shape;
};

static const std::map<std::string, InputSpec> &input_specs() {
    static const std::map<std::string, InputSpec> specs = {
        { "inp_embd",   { GGML_TYPE_F32, [](const HParams &hp, int n) { return std::vector<int64_t>{ hp.n_embd, n }; } } },
        { "inp_tokens", { GGML_TYPE_F32, [](const HParams &, int n) { return std::vector<int64_t>{ n }; } } },
        { "inp_pos",    { GGML_TYPE_I32, [](const HParams &, int n) { return std::vector<int64_t>{ n }; } } },
    };
    return specs;
}

class Inputs {
public:
    Inputs(ggml_context *ctx, const HParams &hp, int n_tokens) : ctx_(ctx), hp_(hp), n_tokens_(n_tokens) {}

    ggml_tensor *get(const std::string &name) {
        auto it = made_.find(name);
        if (it != made_.end()) return it->second;
        const InputSpec &spec = input_specs().at(name);
        std::vector<int64_t> ne = spec.shape(hp_, n_tokens_);
        ggml_tensor *t = ggml_new_tensor(ctx_, spec.type, (int) ne.size(), ne.data());
        ggml_set_name(t, name.c_str());
        ggml_set_input(t);
        made_[name] = t;
        return t;
    }

    const std::map<std::string, ggml_tensor *> &all() const { return made_; }

private:
    ggml_context *ctx_;
    HParams hp_;
    int n_tokens_;
    std::map<std::string, ggml_tensor *> made_;
};

struct Weights {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *tok_embd = nullptr, *output = nullptr;
    std::vector<ggml_tensor *> wq, wo;
};

static void load_weights(Weights &w, const HParams &hp, ggml_backend_t backend) {
    ggml_init_params ip = { ggml_tensor_overhead() * (2 + 2 * hp.n_layer), nullptr, true };
    w.ctx.reset(ggml_init(ip));
    w.tok_embd = ggml_new_tensor_2d(w.ctx.get(), GGML_TYPE_F32, hp.n_embd, hp.n_vocab);
    w.output = ggml_new_tensor_2d(w.ctx.get(), GGML_TYPE_F32, hp.n_embd, hp.n_vocab);
    for (int il = 0; il < hp.n_layer; il++) {
        w.wq.push_back(ggml_new_tensor_2d(w.ctx.get(), GGML_TYPE_F32, hp.n_embd, hp.n_embd));
        w.wo.push_back(ggml_new_tensor_2d(w.ctx.get(), GGML_TYPE_F32, hp.n_embd, hp.n_embd));
    }
    w.buf.reset(ggml_backend_alloc_ctx_tensors(w.ctx.get(), backend));
    for (ggml_tensor *t = ggml_get_first_tensor(w.ctx.get()); t; t = ggml_get_next_tensor(w.ctx.get(), t)) {
        std::vector<float> v(ggml_nelements(t));
        for (size_t i = 0; i < v.size(); i++) v[i] = 0.1f * std::cos(0.3f * (float) i);
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
    }
}

static ggml_tensor *build_forward(ggml_context *ctx, const HParams &hp, const Weights &w, Inputs &in) {
    const int n_tokens = (int) in.get("inp_pos")->ne[0];
    const int hd = hp.n_embd / hp.n_head;
    ggml_tensor *x = ggml_get_rows(ctx, w.tok_embd, in.get("inp_tokens")); // expect-error: ggml-type-mismatch
    for (int il = 0; il < hp.n_layer; il++) {
        ggml_tensor *q = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, w.wq[il], ggml_rms_norm(ctx, x, 1e-6f)), hd, hp.n_head, n_tokens);
        q = ggml_rope_ext(ctx, q, in.get("inp_pos"), nullptr, hd, 0, 512, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
        x = ggml_add(ctx, x, ggml_mul_mat(ctx, w.wo[il], ggml_reshape_2d(ctx, q, hp.n_embd, n_tokens)));
    }
    return ggml_mul_mat(ctx, w.output, x);
}

} // namespace lm

int main(int argc, char **argv) {
    int n_tokens = 4;
    for (int i = 1; i + 1 < argc; i++) {
        if (!std::strcmp(argv[i], "--n-tokens")) n_tokens = std::atoi(argv[i + 1]);
    }
    if (n_tokens < 1 || n_tokens > 64) n_tokens = 4;

    lm::HParams hp;
    ggml_backend_ptr backend(ggml_backend_cuda_init(0));
    if (!backend) {
        std::fprintf(stderr, "CUDA0 unavailable\n");
        return 1;
    }
    lm::Weights w;
    lm::load_weights(w, hp, backend.get());

    ggml_init_params ip = { ggml_tensor_overhead() * 128 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(ip));
    lm::Inputs inputs(ctx.get(), hp, n_tokens);
    ggml_tensor *logits = lm::build_forward(ctx.get(), hp, w, inputs);
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, logits);

    ggml_gallocr_ptr alloc(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend.get())));
    if (!ggml_gallocr_alloc_graph(alloc.get(), gf)) return 1;

    std::vector<int32_t> toks(n_tokens), pos(n_tokens);
    for (int i = 0; i < n_tokens; i++) {
        toks[i] = (5 * i + 1) % hp.n_vocab;
        pos[i] = i;
    }
    for (const auto &kv : inputs.all()) {
        if (kv.first == "inp_tokens") ggml_backend_tensor_set(kv.second, toks.data(), 0, ggml_nbytes(kv.second));
        else if (kv.first == "inp_pos") ggml_backend_tensor_set(kv.second, pos.data(), 0, ggml_nbytes(kv.second));
    }
    if (ggml_backend_graph_compute(backend.get(), gf) != GGML_STATUS_SUCCESS) return 1;
    std::vector<float> out(ggml_nelements(logits));
    ggml_backend_tensor_get(logits, out.data(), 0, ggml_nbytes(logits));
    std::printf("logits[last][0] = %.5f\n", out[(size_t) (n_tokens - 1) * hp.n_vocab]);
    return 0;
}
