// provenance: blind round g6
// run-args: --device CUDA1 --n-predict 5
// A tiny GPT with RAII ownership (ggml-cpp.h smart pointers): the model, its KV cache and the
// compute allocator all live on the device named by --device (default: the best one), so every
// graph is computed where its tensors are.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct gpt_hparams {
    int n_vocab = 48;
    int n_embd = 32;
    int n_ctx = 16;
};

class Device {
public:
    explicit Device(const std::string &name) {
        ggml_backend_dev_t dev = name.empty() ? nullptr : ggml_backend_dev_by_name(name.c_str());
        if (dev) {
            backend_.reset(ggml_backend_dev_init(dev, nullptr));
        } else {
            backend_.reset(ggml_backend_init_best());
        }
        if (!backend_) throw std::runtime_error("no backend");
        dev_ = ggml_backend_get_device(backend_.get());
    }
    ggml_backend_t backend() const { return backend_.get(); }
    ggml_backend_buffer_type_t buft() const { return ggml_backend_dev_buffer_type(dev_); }
    const char *name() const { return ggml_backend_dev_name(dev_); }

private:
    ggml_backend_ptr backend_;
    ggml_backend_dev_t dev_ = nullptr;
};

class GptModel {
public:
    GptModel(const gpt_hparams &hp, const Device &dev) : hp_(hp) {
        ggml_init_params ip = {ggml_tensor_overhead() * 8, nullptr, true};
        ctx_.reset(ggml_init(ip));
        add("wte", hp.n_embd, hp.n_vocab);
        add("wpe", hp.n_embd, hp.n_ctx);
        add("c_attn_k", hp.n_embd, hp.n_embd);
        add("c_attn_v", hp.n_embd, hp.n_embd);
        add("c_attn_q", hp.n_embd, hp.n_embd);
        add("lm_head", hp.n_embd, hp.n_vocab);
        buf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx_.get(), dev.buft()));
        if (!buf_) throw std::runtime_error("weights allocation failed");
        int seed = 0;
        for (auto &kv : tensors_) {
            std::vector<float> data(ggml_nelements(kv.second));
            for (size_t i = 0; i < data.size(); i++) data[i] = 0.05f * std::sin(0.37f * (float)i + (float)seed);
            ggml_backend_tensor_set(kv.second, data.data(), 0, ggml_nbytes(kv.second));
            seed++;
        }
    }
    ggml_tensor *operator[](const std::string &name) const { return tensors_.at(name); }
    const gpt_hparams &hparams() const { return hp_; }

private:
    void add(const std::string &name, int64_t ne0, int64_t ne1) {
        ggml_tensor *t = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, ne0, ne1);
        ggml_set_name(t, name.c_str());
        tensors_[name] = t;
    }
    gpt_hparams hp_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::map<std::string, ggml_tensor *> tensors_;
};

class KvCache {
public:
    KvCache(const gpt_hparams &hp, const Device &dev) {
        ggml_init_params ip = {ggml_tensor_overhead() * 2, nullptr, true};
        ctx_.reset(ggml_init(ip));
        k = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp.n_embd, hp.n_ctx);
        v = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp.n_embd, hp.n_ctx);
        buf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx_.get(), dev.buft()));
        ggml_backend_buffer_clear(buf_.get(), 0);
    }
    ggml_tensor *k = nullptr;
    ggml_tensor *v = nullptr;
    int n_past = 0;

private:
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
};

static ggml_cgraph *build_step(ggml_context *ctx, const GptModel &m, KvCache &kv, int32_t pos) {
    const auto &hp = m.hparams();
    ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_tensor *tok = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
    ggml_tensor *p = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
    ggml_set_name(tok, "tok");
    ggml_set_name(p, "pos");
    ggml_set_input(tok);
    ggml_set_input(p);
    ggml_tensor *x = ggml_add(ctx, ggml_get_rows(ctx, m["wte"], tok), ggml_get_rows(ctx, m["wpe"], p));
    ggml_tensor *q = ggml_mul_mat(ctx, m["c_attn_q"], x);
    ggml_tensor *k = ggml_mul_mat(ctx, m["c_attn_k"], x);
    ggml_tensor *v = ggml_mul_mat(ctx, m["c_attn_v"], x);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, k, ggml_view_1d(ctx, kv.k, hp.n_embd, pos * kv.k->nb[1])));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, v, ggml_view_1d(ctx, kv.v, hp.n_embd, pos * kv.v->nb[1])));
    ggml_tensor *K = ggml_view_2d(ctx, kv.k, hp.n_embd, pos + 1, kv.k->nb[1], 0);
    ggml_tensor *V = ggml_view_2d(ctx, kv.v, hp.n_embd, pos + 1, kv.v->nb[1], 0);
    ggml_tensor *att = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, K, q), nullptr, 1.0f / std::sqrt((float)hp.n_embd), 0.0f);
    ggml_tensor *Vt = ggml_cont(ctx, ggml_transpose(ctx, V));
    ggml_tensor *h = ggml_add(ctx, x, ggml_mul_mat(ctx, Vt, att));
    ggml_tensor *logits = ggml_mul_mat(ctx, m["lm_head"], h);
    ggml_set_name(logits, "logits");
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);
    return gf;
}

int main(int argc, char **argv) {
    std::string device;
    int n_predict = 4;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--device")) device = argv[i + 1];
        else if (!std::strcmp(argv[i], "--n-predict")) n_predict = std::atoi(argv[i + 1]);
    }
    gpt_hparams hp;
    if (n_predict < 1 || n_predict >= hp.n_ctx) n_predict = 4;

    try {
        Device dev(device);
        std::printf("running on %s\n", dev.name());
        GptModel model(hp, dev);
        KvCache kv(hp, dev);
        ggml_gallocr_ptr galloc(ggml_gallocr_new(dev.buft()));

        std::vector<int32_t> out_tokens = {1};
        std::vector<float> logits(hp.n_vocab);
        for (int step = 0; step < n_predict; step++) {
            ggml_init_params gp = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
            ggml_context_ptr ctx0(ggml_init(gp));
            ggml_cgraph *gf = build_step(ctx0.get(), model, kv, kv.n_past);
            if (!ggml_gallocr_alloc_graph(galloc.get(), gf)) throw std::runtime_error("alloc_graph");
            int32_t tok = out_tokens.back();
            int32_t pos = kv.n_past;
            ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "tok"), &tok, 0, sizeof tok);
            ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "pos"), &pos, 0, sizeof pos);
            ggml_backend_graph_compute(dev.backend(), gf);
            ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "logits"), logits.data(), 0, logits.size() * sizeof(float));
            int best = 0;
            for (int i = 1; i < hp.n_vocab; i++) if (logits[i] > logits[best]) best = i;
            out_tokens.push_back(best);
            kv.n_past++;
        }
        std::printf("tokens:");
        for (int32_t t : out_tokens) std::printf(" %d", t);
        std::printf("\n");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
