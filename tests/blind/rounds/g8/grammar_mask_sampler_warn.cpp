// Constrained decoding: a tiny grammar (a state machine over token classes) restricts which
// tokens may come next; its mask (0 or -inf per token) is added to the logits in the graph
// before the softmax. Masks are built on the host each step, or, with --mask-cache TYPE, built
// once per grammar state into device tensors (f32, or f16 to halve their size) and copied into
// the graph's mask input.
// run-args: --mask-cache f16 --n-gen 5
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml.h"

namespace {

constexpr int kVocab = 30;
constexpr int kEmbd = 12;

// tokens 0-9 digits, 10-19 letters, 20 ',', 21 '.', the rest are never allowed
struct Grammar {
    enum State { kStart = 0, kNumber, kWord, kSep, kNumStates };
    std::vector<std::function<bool(int)>> allow{
        [](int t) { return t < 20; },                    // kStart: digit or letter
        [](int t) { return t < 10 || t == 20; },         // kNumber: more digits or ','
        [](int t) { return (t >= 10 && t < 20) || t == 21; }, // kWord: letters or '.'
        [](int t) { return t < 20; },                    // kSep
    };
    State advance(State s, int t) const {
        if (t == 20 || t == 21) return kSep;
        (void)s;
        return t < 10 ? kNumber : kWord;
    }
    std::vector<float> mask(State s) const {
        std::vector<float> m(kVocab);
        for (int t = 0; t < kVocab; t++) m[t] = allow[s](t) ? 0.0f : -std::numeric_limits<float>::infinity();
        return m;
    }
};

struct Model {
    ggml_backend_ptr backend;
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *emb = nullptr, *head = nullptr;
};

void fill(ggml_tensor *t, float scale, float freq) {
    std::vector<float> v(ggml_nelements(t));
    for (size_t i = 0; i < v.size(); i++) v[i] = scale * std::cos(freq * (float)(i + 3));
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

class MaskCache {
  public:
    MaskCache(ggml_backend_t backend, ggml_type type, const Grammar &g) {
        ggml_init_params ip = {ggml_tensor_overhead() * Grammar::kNumStates, nullptr, true};
        ctx_.reset(ggml_init(ip));
        for (int s = 0; s < Grammar::kNumStates; s++) rows_.push_back(ggml_new_tensor_1d(ctx_.get(), type, kVocab));
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
        for (int s = 0; s < Grammar::kNumStates; s++) {
            std::vector<float> m = g.mask((Grammar::State)s);
            if (type == GGML_TYPE_F16) {
                std::vector<ggml_fp16_t> h(kVocab);
                ggml_fp32_to_fp16_row(m.data(), h.data(), kVocab);
                ggml_backend_tensor_set(rows_[s], h.data(), 0, ggml_nbytes(rows_[s]));
            } else {
                ggml_backend_tensor_set(rows_[s], m.data(), 0, ggml_nbytes(rows_[s]));
            }
        }
    }
    ggml_tensor *row(Grammar::State s) const { return rows_[s]; }

  private:
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::vector<ggml_tensor *> rows_;
};

void apply_mask(ggml_tensor *inp_mask, const Grammar &g, Grammar::State s, const MaskCache *cache) {
    if (cache) {
        ggml_backend_tensor_copy(cache->row(s), inp_mask); // expect-warning: ggml-type-mismatch
        return;
    }
    std::vector<float> m = g.mask(s);
    ggml_backend_tensor_set(inp_mask, m.data(), 0, ggml_nbytes(inp_mask));
}

} // namespace

int main(int argc, char **argv) {
    std::string cache_type;
    int n_gen = 6;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--mask-cache") cache_type = argv[i + 1];
        else if (a == "--n-gen") n_gen = std::atoi(argv[i + 1]);
    }
    if (n_gen < 1 || n_gen > 64) n_gen = 6;

    Model m;
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    m.backend.reset(ggml_backend_dev_init(dev, nullptr));
    ggml_init_params ip = {ggml_tensor_overhead() * 2, nullptr, true};
    m.ctx.reset(ggml_init(ip));
    m.emb = ggml_new_tensor_2d(m.ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);
    m.head = ggml_new_tensor_2d(m.ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);
    m.buf.reset(ggml_backend_alloc_ctx_tensors(m.ctx.get(), m.backend.get()));
    fill(m.emb, 1.0f, 0.37f);
    fill(m.head, 0.8f, 0.11f);

    Grammar g;
    std::unique_ptr<MaskCache> cache;
    if (!cache_type.empty())
        cache.reset(new MaskCache(m.backend.get(), cache_type == "f16" ? GGML_TYPE_F16 : GGML_TYPE_F32, g));

    ggml_gallocr_ptr galloc(ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.backend.get())));
    Grammar::State state = Grammar::kStart;
    int tok = 5;
    std::string text;
    for (int step = 0; step < n_gen; step++) {
        ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(gp));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *inp_tok = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, 1);
        ggml_tensor *inp_mask = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kVocab);
        ggml_set_input(inp_tok);
        ggml_set_input(inp_mask);
        ggml_tensor *h = ggml_tanh(ctx.get(), ggml_get_rows(ctx.get(), m.emb, inp_tok));
        ggml_tensor *logits = ggml_mul_mat(ctx.get(), m.head, h);
        ggml_tensor *probs = ggml_soft_max(ctx.get(), ggml_add(ctx.get(), logits, inp_mask));
        ggml_set_output(probs);
        ggml_build_forward_expand(gf, probs);
        ggml_gallocr_alloc_graph(galloc.get(), gf);

        int32_t t32 = tok;
        ggml_backend_tensor_set(inp_tok, &t32, 0, sizeof t32);
        apply_mask(inp_mask, g, state, cache.get());
        ggml_backend_graph_compute(m.backend.get(), gf);
        std::vector<float> p(kVocab);
        ggml_backend_tensor_get(probs, p.data(), 0, ggml_nbytes(probs));
        int best = 0;
        for (int t = 1; t < kVocab; t++)
            if (p[t] > p[best]) best = t;
        if (!g.allow[state](best)) {
            std::fprintf(stderr, "grammar: token %d not allowed in state %d\n", best, (int)state);
            return 2;
        }
        tok = best;
        state = g.advance(state, tok);
        text += tok < 10 ? (char)('0' + tok) : tok < 20 ? (char)('a' + tok - 10) : tok == 20 ? ',' : '.';
    }
    std::printf("grammar: \"%s\" (%s masks)\n", text.c_str(), cache_type.empty() ? "host" : cache_type.c_str());
    return 0;
}
