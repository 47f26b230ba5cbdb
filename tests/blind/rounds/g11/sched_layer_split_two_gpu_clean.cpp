// llama.cpp-style layer split over two GPUs: the token embeddings stay in a CPU buffer (as
// llama.cpp keeps tok_embd on the host), the blocks are split between CUDA0 and CUDA1 with one
// weight buffer per device, and the output head sits on CUDA1. Each step rebuilds the graph,
// allocates it through ggml_backend_sched over {CUDA0, CUDA1, CPU}, finds its inputs by name
// with ggml_graph_get_tensor, and reads the logits back with ggml_backend_tensor_get.
// Tricky but correct: every op mixes tensors of different devices only through the
// scheduler, which copies activations between backends; nothing is computed directly.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kVocab = 40;
constexpr int kEmbd = 32;
constexpr int kLayers = 4;

struct block {
    ggml_tensor *norm = nullptr;
    ggml_tensor *ffn_up = nullptr;
    ggml_tensor *ffn_down = nullptr;
    int device = 0;
};

struct device_weights {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
};

class SplitModel {
  public:
    SplitModel() {
        for (int d = 0; d < 2; d++) gpus_.emplace_back(ggml_backend_cuda_init(d));
        cpu_.reset(ggml_backend_cpu_init());
        ggml_backend_cpu_set_n_threads(cpu_.get(), 1);

        // one weight context per placement: 0 = CUDA0, 1 = CUDA1, 2 = CPU
        for (int i = 0; i < 3; i++) {
            ggml_init_params ip = {ggml_tensor_overhead() * 16, nullptr, true};
            w_[i].ctx.reset(ggml_init(ip));
        }
        tok_embd_ = ggml_new_tensor_2d(w_[2].ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);
        ggml_set_name(tok_embd_, "token_embd.weight");
        for (int il = 0; il < kLayers; il++) {
            block b;
            b.device = il < kLayers / 2 ? 0 : 1;
            ggml_context *c = w_[b.device].ctx.get();
            b.norm = ggml_new_tensor_1d(c, GGML_TYPE_F32, kEmbd);
            b.ffn_up = ggml_new_tensor_2d(c, GGML_TYPE_F32, kEmbd, 2 * kEmbd);
            b.ffn_down = ggml_new_tensor_2d(c, GGML_TYPE_F32, 2 * kEmbd, kEmbd);
            blocks_.push_back(b);
        }
        output_ = ggml_new_tensor_2d(w_[1].ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);

        w_[0].buf.reset(ggml_backend_alloc_ctx_tensors(w_[0].ctx.get(), gpus_[0].get()));
        w_[1].buf.reset(ggml_backend_alloc_ctx_tensors(w_[1].ctx.get(), gpus_[1].get()));
        w_[2].buf.reset(ggml_backend_alloc_ctx_tensors(w_[2].ctx.get(), cpu_.get()));
        for (auto &dw : w_) {
            ggml_context *c = dw.ctx.get();
            for (ggml_tensor *t = ggml_get_first_tensor(c); t; t = ggml_get_next_tensor(c, t)) load(t);
        }

        std::vector<ggml_backend_t> backends = {gpus_[0].get(), gpus_[1].get(), cpu_.get()};
        sched_.reset(ggml_backend_sched_new(backends.data(), nullptr, (int)backends.size(),
                                            GGML_DEFAULT_GRAPH_SIZE, false, true));
    }

    std::vector<float> forward(const std::vector<int32_t> &tokens) {
        ggml_init_params ip = {ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead(),
                               nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = build(ctx.get(), (int)tokens.size());

        ggml_backend_sched_reset(sched_.get());
        if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) return {};
        ggml_tensor *inp = ggml_graph_get_tensor(gf, "inp_tokens");
        ggml_backend_tensor_set(inp, tokens.data(), 0, ggml_nbytes(inp));
        ggml_backend_sched_graph_compute(sched_.get(), gf);

        ggml_tensor *out = ggml_graph_get_tensor(gf, "result_output");
        std::vector<float> logits(ggml_nelements(out));
        ggml_backend_tensor_get(out, logits.data(), 0, ggml_nbytes(out));
        return logits;
    }

    int n_splits() { return ggml_backend_sched_get_n_splits(sched_.get()); }

  private:
    static void load(ggml_tensor *t) {
        std::vector<float> v(ggml_nelements(t));
        for (size_t i = 0; i < v.size(); i++) v[i] = 0.05f * std::cos(0.37f * (float)i);
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
    }

    ggml_cgraph *build(ggml_context *ctx, int n_tokens) {
        ggml_cgraph *gf = ggml_new_graph(ctx);
        ggml_tensor *inp = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_tokens);
        ggml_set_name(inp, "inp_tokens");
        ggml_set_input(inp);
        ggml_tensor *x = ggml_get_rows(ctx, tok_embd_, inp);
        for (const block &b : blocks_) {
            ggml_tensor *h = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), b.norm);
            h = ggml_silu(ctx, ggml_mul_mat(ctx, b.ffn_up, h));
            x = ggml_add(ctx, x, ggml_mul_mat(ctx, b.ffn_down, h));
        }
        ggml_tensor *logits = ggml_mul_mat(ctx, output_, x);
        ggml_set_name(logits, "result_output");
        ggml_set_output(logits);
        ggml_build_forward_expand(gf, logits);
        return gf;
    }

    std::vector<ggml_backend_ptr> gpus_;
    ggml_backend_ptr cpu_;
    device_weights w_[3];
    ggml_tensor *tok_embd_ = nullptr;
    ggml_tensor *output_ = nullptr;
    std::vector<block> blocks_;
    ggml_backend_sched_ptr sched_; // declared last: freed before the backends
};

} // namespace

int main() {
    if (ggml_backend_cuda_get_device_count() < 2) return 1;
    auto model = std::make_unique<SplitModel>();
    std::vector<int32_t> tokens = {3, 9, 27};
    for (int step = 0; step < 3; step++) {
        std::vector<float> logits = model->forward(tokens);
        if (logits.empty()) return 1;
        const float *last = logits.data() + (tokens.size() - 1) * kVocab;
        int best = 0;
        for (int i = 1; i < kVocab; i++)
            if (last[i] > last[best]) best = i;
        tokens.push_back(best);
    }
    std::printf("splits %d, tokens:", model->n_splits());
    for (int32_t t : tokens) std::printf(" %d", t);
    std::printf("\n");
    return 0;
}
