// provenance: blind round g6
// run-args: --batch 3
// BERT-style sentence embedder on the first GPU. Batched mode pads sequences and builds an
// additive attention mask from the tokenizer's 0/1 attention_mask; single mode reads the CLS
// vector of the output directly.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct BertConfig {
    int n_vocab = 128;
    int n_embd = 16;
    int max_len = 8;
};

struct Encoded {
    std::vector<int32_t> ids;
    std::vector<int32_t> attention_mask;
    int n_seq = 0;
    int len = 0;
};

static Encoded encode_batch(const std::vector<std::string> &texts, const BertConfig &cfg) {
    Encoded e;
    e.n_seq = (int)texts.size();
    e.len = cfg.max_len;
    for (const auto &t : texts) {
        for (int i = 0; i < cfg.max_len; i++) {
            bool real = i < (int)t.size();
            e.ids.push_back(real ? (int32_t)((unsigned char)t[(size_t)i] % cfg.n_vocab) : 0);
            e.attention_mask.push_back(real ? 1 : 0);
        }
    }
    return e;
}

class Bert {
public:
    Bert(const BertConfig &cfg, ggml_backend_t backend) : cfg_(cfg), backend_(backend) {
        ggml_init_params ip = {ggml_tensor_overhead() * 4, nullptr, true};
        ctx_.reset(ggml_init(ip));
        tok_embd = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, cfg.n_embd, cfg.n_vocab);
        wq = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, cfg.n_embd, cfg.n_embd);
        wk = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, cfg.n_embd, cfg.n_embd);
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
        for (ggml_tensor *t : {tok_embd, wq, wk}) {
            std::vector<float> v((size_t)ggml_nelements(t));
            for (size_t i = 0; i < v.size(); i++) v[i] = 0.1f * std::sin((float)i * 0.7f);
            ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
        }
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    }

    // returns the graph's output [n_embd, len, n_seq]
    ggml_tensor *forward(ggml_context *ctx, ggml_cgraph *gf, int len, int n_seq, bool masked) {
        ggml_tensor *ids = ggml_new_tensor_2d(ctx, GGML_TYPE_I32, len, n_seq);
        ggml_set_name(ids, "ids");
        ggml_set_input(ids);
        ggml_tensor *x = ggml_get_rows(ctx, tok_embd, ggml_reshape_1d(ctx, ids, len * n_seq));
        x = ggml_reshape_3d(ctx, x, cfg_.n_embd, len, n_seq);
        ggml_tensor *q = ggml_mul_mat(ctx, wq, x);
        ggml_tensor *k = ggml_mul_mat(ctx, wk, x);
        ggml_tensor *kq = ggml_mul_mat(ctx, k, q); // [len, len, n_seq]
        ggml_tensor *mask = nullptr;
        if (masked) {
            mask = ggml_new_tensor_3d(ctx, GGML_TYPE_I32, len, len, n_seq); // per query row
            ggml_set_name(mask, "attention_mask");
            ggml_set_input(mask);
        }
        kq = ggml_soft_max_ext(ctx, kq, mask, 1.0f / std::sqrt((float)cfg_.n_embd), 0.0f); // expect-error: ggml-type-mismatch
        ggml_tensor *vt = ggml_cont(ctx, ggml_permute(ctx, x, 1, 0, 2, 3));
        ggml_tensor *out = ggml_mul_mat(ctx, vt, kq);
        ggml_set_name(out, "hidden");
        ggml_set_output(out);
        ggml_build_forward_expand(gf, out);
        return out;
    }

    ggml_gallocr_t galloc() const { return galloc_.get(); }
    ggml_backend_t backend() const { return backend_; }

private:
    BertConfig cfg_;
    ggml_backend_t backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr galloc_;
    ggml_tensor *tok_embd = nullptr, *wq = nullptr, *wk = nullptr;
};

static void print_batch(const Encoded &e) {
    for (int s = 0; s < e.n_seq; s++) {
        std::printf("  seq %d:", s);
        for (int i = 0; i < e.len; i++) {
            size_t k = (size_t)(s * e.len + i);
            std::printf(" %3d%s", e.ids[k], e.attention_mask[k] ? "" : "*");
        }
        std::printf("\n");
    }
}

static float l2(const float *v, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return std::sqrt(s);
}

int main(int argc, char **argv) {
    int batch = 1;
    for (int i = 1; i + 1 < argc; i++)
        if (!std::strcmp(argv[i], "--batch")) batch = std::atoi(argv[++i]);
    if (batch < 1 || batch > 4) batch = 1;
    BertConfig cfg;
    ggml_backend_ptr gpu(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr));
    if (!gpu) {
        std::fprintf(stderr, "no GPU\n");
        return 1;
    }
    Bert bert(cfg, gpu.get());
    std::vector<std::string> texts = {"tensor", "gpu", "buffers", "ctx"};
    texts.resize((size_t)batch);
    Encoded enc = encode_batch(texts, cfg);
    print_batch(enc);

    ggml_init_params gp = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(gp));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    const bool batched = batch > 1;
    ggml_tensor *hidden = bert.forward(ctx.get(), gf, enc.len, enc.n_seq, batched);
    ggml_gallocr_alloc_graph(bert.galloc(), gf);
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "ids"), enc.ids.data(), 0, enc.ids.size() * sizeof(int32_t));
    if (batched) {
        std::vector<int32_t> rows;
        for (int s = 0; s < enc.n_seq; s++)
            for (int q = 0; q < enc.len; q++)
                rows.insert(rows.end(), enc.attention_mask.begin() + s * enc.len, enc.attention_mask.begin() + (s + 1) * enc.len);
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "attention_mask"), rows.data(), 0, rows.size() * sizeof(int32_t));
    }
    ggml_backend_graph_compute(bert.backend(), gf);

    if (batched) {
        std::vector<float> all((size_t)ggml_nelements(hidden));
        ggml_backend_tensor_get(hidden, all.data(), 0, ggml_nbytes(hidden));
        for (int s = 0; s < enc.n_seq; s++)
            std::printf("seq %d cls[0] = %.4f |cls| = %.4f\n", s, all[(size_t)s * cfg.n_embd * enc.len], l2(&all[(size_t)s * cfg.n_embd * enc.len], cfg.n_embd));
    } else {
        const float *cls = (const float *)hidden->data;
        float norm = 0.0f;
        for (int i = 0; i < cfg.n_embd; i++) norm += cls[i] * cls[i]; // expect-error: ggml-host-access
        std::printf("cls norm %.4f\n", std::sqrt(norm));
    }
    return 0;
}
