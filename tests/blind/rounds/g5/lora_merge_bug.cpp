// provenance: blind round g5
// lora_merge: merges LoRA adapters (W += scale * B @ A) into the base model's projection weights.
// Adapters are kept on the second GPU to leave room on the first.
// run-args: --scale 0.5
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

struct MergeConfig {
    int main_gpu = 0;
    int adapter_gpu = 1; // adapters are small; keep them off the main GPU
    int rank = 4;
    float scale = 1.0f;
};

struct BaseModel {
    ggml_backend_ptr backend;
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    std::map<std::string, ggml_tensor *> weights; // [n_in, n_out]

    BaseModel(const MergeConfig &cfg, const std::vector<std::string> &names, int n_in, int n_out) {
        backend.reset(ggml_backend_cuda_init(cfg.main_gpu));
        if (!backend) throw std::runtime_error("main gpu");
        ggml_init_params ip = {names.size() * ggml_tensor_overhead(), nullptr, true};
        ctx.reset(ggml_init(ip));
        for (const auto &n : names) {
            ggml_tensor *t = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, n_in, n_out);
            ggml_set_name(t, n.c_str());
            weights[n] = t;
        }
        buf.reset(ggml_backend_alloc_ctx_tensors(ctx.get(), backend.get()));
        if (!buf) throw std::runtime_error("base alloc");
        for (auto &kv : weights) {
            std::vector<float> v(ggml_nelements(kv.second), 0.0f);
            for (int i = 0; i < std::min(n_in, n_out); i++) v[i * n_in + i] = 1.0f;
            ggml_backend_tensor_set(kv.second, v.data(), 0, v.size() * sizeof(float));
        }
    }
};

struct LoraPair {
    ggml_tensor *a = nullptr; // [n_in, r]
    ggml_tensor *b = nullptr; // [r, n_out]
};

class AdapterSet {
public:
    AdapterSet(const MergeConfig &cfg, const BaseModel &base) {
        ggml_init_params ip = {2 * base.weights.size() * ggml_tensor_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        for (const auto &kv : base.weights) {
            const ggml_tensor *w = kv.second;
            LoraPair p;
            p.a = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, w->ne[0], cfg.rank);
            p.b = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, cfg.rank, w->ne[1]);
            ggml_format_name(p.a, "%s.lora_a", kv.first.c_str());
            ggml_format_name(p.b, "%s.lora_b", kv.first.c_str());
            pairs_[kv.first] = p;
        }
        buf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx_.get(), ggml_backend_cuda_buffer_type(cfg.adapter_gpu)));
        if (!buf_) throw std::runtime_error("adapter alloc");
        int salt = 1;
        for (auto &kv : pairs_) {
            fill(kv.second.a, salt++);
            fill(kv.second.b, salt++);
        }
    }

    const std::unordered_map<std::string, LoraPair> &pairs() const { return pairs_; }

private:
    static void fill(ggml_tensor *t, int salt) {
        std::vector<float> v(ggml_nelements(t));
        for (size_t i = 0; i < v.size(); i++) v[i] = 0.1f * std::sin(float(i * salt) * 0.3f);
        ggml_backend_tensor_set(t, v.data(), 0, v.size() * sizeof(float));
    }

    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::unordered_map<std::string, LoraPair> pairs_;
};

// W <- W + scale * (B @ A)^T in ggml's [n_in, n_out] layout
static void merge_one(BaseModel &base, ggml_tensor *w, const LoraPair &p, float scale) {
    ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(ip));
    ggml_context *c = ctx.get();
    ggml_tensor *at = ggml_cont(c, ggml_transpose(c, p.a)); // [r, n_in]
    ggml_tensor *delta = ggml_mul_mat(c, at, p.b);            // [n_in, n_out]
    ggml_tensor *merged = ggml_add(c, w, ggml_scale(c, delta, scale));
    ggml_cgraph *gf = ggml_new_graph(c);
    ggml_build_forward_expand(gf, ggml_cpy(c, merged, w));

    ggml_gallocr_ptr galloc(ggml_gallocr_new(ggml_backend_get_default_buffer_type(base.backend.get())));
    ggml_gallocr_alloc_graph(galloc.get(), gf);
    ggml_backend_graph_compute(base.backend.get(), gf); // expect-error: ggml-backend-mismatch
}

static void report_memory(const BaseModel &base, const MergeConfig &cfg) {
    size_t base_bytes = ggml_backend_buffer_get_size(base.buf.get());
    size_t lora_bytes = 0;
    for (const auto &kv : base.weights) {
        const ggml_tensor *w = kv.second;
        lora_bytes += size_t(cfg.rank) * size_t(w->ne[0] + w->ne[1]) * sizeof(float);
    }
    std::printf("base: %zu bytes on CUDA%d, adapters: ~%zu bytes on CUDA%d (rank %d, scale %.2f)\n", base_bytes,
                cfg.main_gpu, lora_bytes, cfg.adapter_gpu, cfg.rank, cfg.scale);
}

static double checksum(ggml_tensor *t) {
    std::vector<float> v(ggml_nelements(t));
    ggml_backend_tensor_get(t, v.data(), 0, v.size() * sizeof(float));
    double s = 0;
    for (float x : v) s += x;
    return s;
}

int main(int argc, char **argv) {
    MergeConfig cfg;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--scale")) cfg.scale = float(std::atof(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--rank")) cfg.rank = std::atoi(argv[i + 1]);
    }
    if (cfg.rank < 1 || cfg.rank > 16) cfg.rank = 4;

    try {
        std::vector<std::string> names = {"blk.0.attn_q", "blk.0.attn_v", "blk.1.attn_q", "blk.1.attn_v"};
        BaseModel base(cfg, names, 24, 24);
        report_memory(base, cfg);
        AdapterSet adapters(cfg, base);
        for (auto &kv : base.weights) {
            auto it = adapters.pairs().find(kv.first);
            if (it == adapters.pairs().end()) continue;
            double before = checksum(kv.second);
            merge_one(base, kv.second, it->second, cfg.scale);
            std::printf("%-14s checksum %.4f -> %.4f\n", kv.first.c_str(), before, checksum(kv.second));
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "merge failed: %s\n", e.what());
        return 1;
    }
    return 0;
}
