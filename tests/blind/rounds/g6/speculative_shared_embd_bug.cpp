// provenance: blind round g6
// run-args: --draft 3
// Speculative decoding: a small draft model on CUDA1 proposes tokens, the target model on
// CUDA0 verifies them. To save memory, the target "reuses the draft's token embedding table"
// (both were trained with the same tokenizer) instead of loading its own.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

struct LmParams {
    int n_vocab = 40;
    int n_embd = 16;
    int gpu = 0;
};

class TinyLm {
public:
    TinyLm(const LmParams &p, ggml_tensor *shared_embd) : p_(p) {
        backend_.reset(ggml_backend_cuda_init(p.gpu));
        ggml_init_params ip = {ggml_tensor_overhead() * 3, nullptr, true};
        ctx_.reset(ggml_init(ip));
        if (shared_embd) {
            tok_embd = shared_embd;
        } else {
            tok_embd = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, p.n_embd, p.n_vocab);
        }
        ffn = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, p.n_embd, p.n_embd);
        head = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, p.n_embd, p.n_vocab);
        buf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx_.get(), ggml_backend_cuda_buffer_type(p.gpu)));
        auto init = [](ggml_tensor *t, float freq) {
            std::vector<float> v((size_t)ggml_nelements(t));
            for (size_t i = 0; i < v.size(); i++) v[i] = 0.3f * std::sin(freq * (float)i);
            ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
        };
        if (!shared_embd) init(tok_embd, 0.11f);
        init(ffn, 0.07f + 0.01f * (float)p.gpu);
        init(head, 0.05f);
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    }

    // logits for every position of `tokens`
    std::vector<float> logits(const std::vector<int32_t> &tokens) {
        const int n = (int)tokens.size();
        ggml_init_params gp = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(gp));
        ggml_context *c = ctx.get();
        ggml_cgraph *gf = ggml_new_graph(c);
        ggml_tensor *ids = ggml_new_tensor_1d(c, GGML_TYPE_I32, n);
        ggml_set_input(ids);
        ggml_tensor *h = ggml_get_rows(c, tok_embd, ids);
        h = ggml_add(c, h, ggml_gelu(c, ggml_mul_mat(c, ffn, h)));
        ggml_tensor *out = ggml_mul_mat(c, head, h);
        ggml_set_output(out);
        ggml_build_forward_expand(gf, out);
        ggml_gallocr_alloc_graph(galloc_.get(), gf);
        ggml_backend_tensor_set(ids, tokens.data(), 0, ggml_nbytes(ids));
        ggml_backend_graph_compute(backend_.get(), gf); // expect-error: ggml-backend-mismatch
        std::vector<float> res((size_t)ggml_nelements(out));
        ggml_backend_tensor_get(out, res.data(), 0, ggml_nbytes(out));
        return res;
    }

    int argmax_at(const std::vector<float> &lg, int pos) const {
        int best = 0;
        const float *row = lg.data() + (size_t)pos * p_.n_vocab;
        for (int i = 1; i < p_.n_vocab; i++) if (row[i] > row[best]) best = i;
        return best;
    }

    ggml_tensor *tok_embd = nullptr;
    ggml_tensor *ffn = nullptr;
    ggml_tensor *head = nullptr;

private:
    LmParams p_;
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr galloc_;
};

struct SpecStats {
    int rounds = 0;
    int drafted = 0;
    int accepted = 0;
    std::vector<int> accepted_per_round;

    void add(int n_drafted, int n_accepted) {
        rounds++;
        drafted += n_drafted;
        accepted += n_accepted;
        accepted_per_round.push_back(n_accepted);
    }
    void print() const {
        std::printf("%d rounds, %d drafted, %d accepted (%.1f%%)\n", rounds, drafted, accepted,
                    drafted ? 100.0 * accepted / drafted : 0.0);
        std::printf("per round:");
        for (int a : accepted_per_round) std::printf(" %d", a);
        std::printf("\n");
    }
};

static void print_sequence(const std::vector<int32_t> &seq) {
    std::printf("sequence:");
    for (int32_t t : seq) std::printf(" %d", t);
    std::printf("\n");
}

int main(int argc, char **argv) {
    int n_draft = 2;
    for (int i = 1; i + 1 < argc; i++)
        if (!std::strcmp(argv[i], "--draft")) n_draft = std::atoi(argv[++i]);
    if (n_draft < 1 || n_draft > 8) n_draft = 2;
    if (ggml_backend_cuda_get_device_count() < 2) return 1;

    LmParams dp;
    dp.gpu = 1;
    LmParams tp;
    tp.gpu = 0;
    auto draft = std::make_unique<TinyLm>(dp, nullptr);
    auto target = std::make_unique<TinyLm>(tp, draft->tok_embd);

    std::vector<int32_t> seq = {1, 5, 9};
    int accepted_total = 0;
    SpecStats stats;
    for (int round = 0; round < 3; round++) {
        std::vector<int32_t> proposal = seq;
        for (int d = 0; d < n_draft; d++) {
            auto lg = draft->logits(proposal);
            proposal.push_back(draft->argmax_at(lg, (int)proposal.size() - 1));
        }
        auto tl = target->logits(proposal);
        int accepted = 0;
        for (int d = 0; d < n_draft; d++) {
            int pos = (int)seq.size() - 1 + d;
            if (target->argmax_at(tl, pos) != proposal[(size_t)pos + 1]) break;
            accepted++;
        }
        for (int d = 0; d < accepted; d++) seq.push_back(proposal[seq.size()]);
        seq.push_back(target->argmax_at(tl, (int)seq.size() - 1));
        accepted_total += accepted;
        stats.add(n_draft, accepted);
        std::printf("round %d: accepted %d/%d, length %zu\n", round, accepted, n_draft, seq.size());
    }
    std::printf("acceptance %.2f\n", (double)accepted_total / (3.0 * n_draft));
    stats.print();
    print_sequence(seq);
    return 0;
}
