// A small decoder-only LM in the style of llama.cpp's graph builder: an input struct made by
// one shared helper (token ids, positions, KQ mask), a per-step graph rebuilt for each batch,
// a gallocr on the GPU, and set_inputs() that fills every input after allocation.
// The mistake: this model's attention is causal through ggml_diag_mask_inf, so the graph
// never uses inputs.kq_mask; gallocr only allocates tensors of the graph, and set_inputs
// still uploads the mask into a tensor that has no buffer.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

struct hparams {
    int n_vocab = 64;
    int n_embd = 32;
    int n_ctx = 16;
};

struct graph_inputs {
    ggml_tensor *tokens = nullptr;
    ggml_tensor *pos = nullptr;
    ggml_tensor *kq_mask = nullptr;
};

graph_inputs make_inputs(ggml_context *ctx, int n_tokens, int n_kv) {
    graph_inputs in;
    in.tokens = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_tokens);
    in.pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_tokens);
    in.kq_mask = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_kv, n_tokens);
    ggml_set_name(in.tokens, "inp_tokens");
    ggml_set_name(in.pos, "inp_pos");
    ggml_set_name(in.kq_mask, "kq_mask");
    ggml_set_input(in.tokens);
    ggml_set_input(in.pos);
    ggml_set_input(in.kq_mask);
    return in;
}

class TinyLM {
  public:
    explicit TinyLM(ggml_backend_t backend) : backend_(backend) {
        ggml_init_params ip = {ggml_tensor_overhead() * 8, nullptr, true};
        ctx_w_.reset(ggml_init(ip));
        auto add = [&](const char *name, int64_t ne0, int64_t ne1) {
            ggml_tensor *t = ggml_new_tensor_2d(ctx_w_.get(), GGML_TYPE_F32, ne0, ne1);
            ggml_set_name(t, name);
            w_[name] = t;
        };
        add("token_embd", hp_.n_embd, hp_.n_vocab);
        add("pos_embd", hp_.n_embd, hp_.n_ctx);
        add("wq", hp_.n_embd, hp_.n_embd);
        add("wk", hp_.n_embd, hp_.n_embd);
        add("wv", hp_.n_embd, hp_.n_embd);
        add("output", hp_.n_embd, hp_.n_vocab);
        buf_w_.reset(ggml_backend_alloc_ctx_tensors(ctx_w_.get(), backend_));
        for (auto &kv : w_) {
            std::vector<float> v(ggml_nelements(kv.second));
            for (size_t i = 0; i < v.size(); i++) v[i] = std::sin(0.1f * (float)i + (float)kv.first.size());
            ggml_backend_tensor_set(kv.second, v.data(), 0, ggml_nbytes(kv.second));
        }
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
    }

    int decode(const std::vector<int32_t> &toks) {
        const int n = (int)toks.size();
        ggml_init_params ip = {ggml_tensor_overhead() * 128 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        graph_inputs in = make_inputs(ctx.get(), n, n);
        ggml_cgraph *gf = build(ctx.get(), in, n);
        if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) return -1;
        set_inputs(in, toks);
        ggml_backend_graph_compute(backend_, gf);

        ggml_tensor *logits = ggml_graph_get_tensor(gf, "result_output");
        std::vector<float> out(ggml_nelements(logits));
        ggml_backend_tensor_get(logits, out.data(), 0, ggml_nbytes(logits));
        int best = 0;
        const float *last = out.data() + (size_t)(n - 1) * hp_.n_vocab;
        for (int i = 1; i < hp_.n_vocab; i++)
            if (last[i] > last[best]) best = i;
        return best;
    }

  private:
    ggml_cgraph *build(ggml_context *ctx, const graph_inputs &in, int n) {
        ggml_cgraph *gf = ggml_new_graph(ctx);
        ggml_tensor *x = ggml_add(ctx, ggml_get_rows(ctx, w_["token_embd"], in.tokens),
                                  ggml_get_rows(ctx, w_["pos_embd"], in.pos));
        ggml_tensor *q = ggml_mul_mat(ctx, w_["wq"], x);
        ggml_tensor *k = ggml_mul_mat(ctx, w_["wk"], x);
        ggml_tensor *v = ggml_mul_mat(ctx, w_["wv"], x);
        ggml_tensor *kq = ggml_mul_mat(ctx, k, q); // [n_kv, n_tokens]
        kq = ggml_scale(ctx, kq, 1.0f / std::sqrt((float)hp_.n_embd));
        kq = ggml_soft_max(ctx, ggml_diag_mask_inf(ctx, kq, 0));
        ggml_tensor *vt = ggml_cont(ctx, ggml_transpose(ctx, v));
        ggml_tensor *att = ggml_mul_mat(ctx, vt, kq); // [n_embd, n_tokens]
        x = ggml_add(ctx, x, att);
        ggml_tensor *logits = ggml_mul_mat(ctx, w_["output"], x);
        ggml_set_name(logits, "result_output");
        ggml_set_output(logits);
        ggml_build_forward_expand(gf, logits);
        (void)n;
        return gf;
    }

    void set_inputs(const graph_inputs &in, const std::vector<int32_t> &toks) {
        const int n = (int)toks.size();
        ggml_backend_tensor_set(in.tokens, toks.data(), 0, ggml_nbytes(in.tokens));
        std::vector<int32_t> pos(n);
        for (int i = 0; i < n; i++) pos[i] = i;
        ggml_backend_tensor_set(in.pos, pos.data(), 0, ggml_nbytes(in.pos));
        std::vector<float> mask((size_t)n * n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) mask[(size_t)i * n + j] = j <= i ? 0.0f : -INFINITY;
        ggml_backend_tensor_set(in.kq_mask, mask.data(), 0, ggml_nbytes(in.kq_mask)); // expect-error: ggml-buffer-not-set
    }

    hparams hp_;
    ggml_backend_t backend_;
    ggml_context_ptr ctx_w_;
    ggml_backend_buffer_ptr buf_w_;
    ggml_gallocr_ptr galloc_;
    std::map<std::string, ggml_tensor *> w_;
};

} // namespace

int main() {
    ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
    if (!gpu) return 1;
    TinyLM lm(gpu.get());
    std::vector<int32_t> prompt = {1, 7, 3};
    for (int step = 0; step < 4; step++) {
        int next = lm.decode(prompt);
        if (next < 0) return 1;
        prompt.push_back(next);
    }
    std::printf("generated:");
    for (int t : prompt) std::printf(" %d", t);
    std::printf("\n");
    return 0;
}
