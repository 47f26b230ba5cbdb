// llama.cpp-style session restore: a saved prompt's K/V rows are read from a session blob
// into a CPU staging context (one tensor per layer), copied into the GPU KV cache with
// ggml_backend_tensor_copy, and decoding resumes with a graph that reads the cache.
// The mistake: the staging tensors are always created as F32 (the format the session was
// saved in), while --cache-type-k f16 makes the K cache F16; ggml_backend_tensor_copy needs
// the same layout on both sides. With the default cache type (f32) the run is clean.
// run-args: --cache-type-k f16
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kEmbd = 32;
constexpr int kCtx = 16;
constexpr int kLayers = 2;

struct cache_params {
    ggml_type type_k = GGML_TYPE_F32;
    ggml_type type_v = GGML_TYPE_F32;
};

ggml_type parse_cache_type(const std::string &s) {
    static const std::map<std::string, ggml_type> names = {
        {"f32", GGML_TYPE_F32}, {"f16", GGML_TYPE_F16}, {"bf16", GGML_TYPE_BF16}};
    auto it = names.find(s);
    return it == names.end() ? GGML_TYPE_F32 : it->second;
}

struct layer_cache {
    ggml_tensor *k = nullptr;
    ggml_tensor *v = nullptr;
};

class KvCache {
  public:
    KvCache(ggml_backend_t backend, const cache_params &cp) {
        ggml_init_params ip = {ggml_tensor_overhead() * 2 * kLayers, nullptr, true};
        ctx_.reset(ggml_init(ip));
        for (int il = 0; il < kLayers; il++) {
            layer_cache lc;
            lc.k = ggml_new_tensor_2d(ctx_.get(), cp.type_k, kEmbd, kCtx);
            lc.v = ggml_new_tensor_2d(ctx_.get(), cp.type_v, kEmbd, kCtx);
            ggml_format_name(lc.k, "cache_k_l%d", il);
            ggml_format_name(lc.v, "cache_v_l%d", il);
            layers.push_back(lc);
        }
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
        ggml_backend_buffer_clear(buf_.get(), 0);
    }
    std::vector<layer_cache> layers;
    int n_tokens = 0;

  private:
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
};

// A session blob: n_tokens, then per layer the K rows and the V rows (F32).
std::vector<float> fake_session(int n_tokens) {
    std::vector<float> blob((size_t)kLayers * 2 * kEmbd * kCtx);
    for (size_t i = 0; i < blob.size(); i++) blob[i] = (float)(i % 23) / 23.0f;
    (void)n_tokens;
    return blob;
}

void restore_session(KvCache &kv, ggml_backend_t cpu, const std::vector<float> &blob, int n_tokens) {
    ggml_init_params ip = {ggml_tensor_overhead() * 2 * kLayers, nullptr, true};
    ggml_context_ptr staging(ggml_init(ip));
    std::vector<std::pair<ggml_tensor *, ggml_tensor *>> pairs; // (staged, cache)
    for (const layer_cache &lc : kv.layers) {
        pairs.emplace_back(ggml_new_tensor_2d(staging.get(), GGML_TYPE_F32, kEmbd, kCtx), lc.k);
        pairs.emplace_back(ggml_new_tensor_2d(staging.get(), GGML_TYPE_F32, kEmbd, kCtx), lc.v);
    }
    ggml_backend_buffer_ptr sbuf(ggml_backend_alloc_ctx_tensors(staging.get(), cpu));
    size_t off = 0;
    for (auto &p : pairs) {
        std::memcpy(p.first->data, blob.data() + off, ggml_nbytes(p.first)); // staging is host memory
        off += (size_t)ggml_nelements(p.first);
    }
    auto upload = [](const ggml_tensor *src, ggml_tensor *dst) {
        ggml_backend_tensor_copy(src, dst); // expect-warning: ggml-type-mismatch
    };
    for (auto &p : pairs) upload(p.first, p.second);
    kv.n_tokens = n_tokens;
}

float resume_decode(KvCache &kv, ggml_backend_t gpu) {
    ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(ip));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *q = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, 1);
    ggml_set_input(q);
    ggml_tensor *x = q;
    for (const layer_cache &lc : kv.layers) {
        ggml_tensor *k = ggml_view_2d(ctx.get(), lc.k, kEmbd, kv.n_tokens, lc.k->nb[1], 0);
        ggml_tensor *v = ggml_view_2d(ctx.get(), lc.v, kEmbd, kv.n_tokens, lc.v->nb[1], 0);
        ggml_tensor *kq = ggml_soft_max(ctx.get(), ggml_mul_mat(ctx.get(), k, x));
        ggml_tensor *vt = ggml_cont(ctx.get(), ggml_transpose(ctx.get(), v));
        x = ggml_add(ctx.get(), x, ggml_mul_mat(ctx.get(), vt, kq));
    }
    ggml_set_output(x);
    ggml_build_forward_expand(gf, x);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu)));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    std::vector<float> qin(kEmbd, 0.5f);
    ggml_backend_tensor_set(q, qin.data(), 0, ggml_nbytes(q));
    ggml_backend_graph_compute(gpu, gf);
    std::vector<float> out(kEmbd);
    ggml_backend_tensor_get(x, out.data(), 0, ggml_nbytes(x));
    return out[0];
}

} // namespace

int main(int argc, char **argv) {
    cache_params cp;
    for (int i = 1; i + 1 < argc; i++) {
        if (std::strcmp(argv[i], "--cache-type-k") == 0) cp.type_k = parse_cache_type(argv[i + 1]);
        if (std::strcmp(argv[i], "--cache-type-v") == 0) cp.type_v = parse_cache_type(argv[i + 1]);
    }
    ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
    ggml_backend_ptr cpu(ggml_backend_cpu_init());
    if (!gpu || !cpu) return 1;

    KvCache kv(gpu.get(), cp);
    const int n_saved = 9;
    restore_session(kv, cpu.get(), fake_session(n_saved), n_saved);
    std::printf("restored %d tokens, resume %.4f\n", kv.n_tokens, resume_decode(kv, gpu.get()));
    return 0;
}
