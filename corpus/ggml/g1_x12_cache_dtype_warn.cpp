// corpus/ggml/g1_x12_cache_dtype_warn.cpp — from blind round g1 (x12_cache_dtype_warn.cpp, labelled by running it on real ggml and the emulated GPU): a prefix-cached scorer whose key cache element type comes from
// the environment (KV_TYPE=f16 halves the cache). The step graph joins the cached keys and
// the step's new F32 keys with ggml_concat, which needs both operands of one type: right for
// the default f32 cache only. The device is picked at run time (best available) and used for
// every buffer and graph.
// run-env: KV_TYPE=f16
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

namespace {

constexpr int kDim = 8;
constexpr int kPrefix = 5;

ggml_type cache_type_from_env() {
    const char * v = std::getenv("KV_TYPE");
    return (v != nullptr && std::string(v) == "f16") ? GGML_TYPE_F16 : GGML_TYPE_F32;
}

struct PrefixCache {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * keys = nullptr;   // [kDim, kPrefix] of the configured type
    ggml_tensor * wk = nullptr;     // F32 [kDim, kDim]

    PrefixCache(ggml_backend_t backend, ggml_type type) {
        ggml_init_params p = { ggml_tensor_overhead() * 2, nullptr, true };
        ctx.reset(ggml_init(p));
        keys = ggml_new_tensor_2d(ctx.get(), type, kDim, kPrefix);
        wk = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kDim, kDim);
        buf.reset(ggml_backend_alloc_ctx_tensors(ctx.get(), backend));
        std::vector<float> k(kDim * kPrefix);
        for (size_t i = 0; i < k.size(); ++i) k[i] = 0.2f * std::sin(static_cast<float>(i));
        if (type == GGML_TYPE_F16) {
            std::vector<ggml_fp16_t> h(k.size());
            ggml_fp32_to_fp16_row(k.data(), h.data(), static_cast<int64_t>(k.size()));
            ggml_backend_tensor_set(keys, h.data(), 0, ggml_nbytes(keys));
        } else {
            ggml_backend_tensor_set(keys, k.data(), 0, ggml_nbytes(keys));
        }
        std::vector<float> w(kDim * kDim);
        for (int i = 0; i < kDim * kDim; ++i) w[i] = (i % (kDim + 1) == 0) ? 1.0f : 0.0f;
        ggml_backend_tensor_set(wk, w.data(), 0, ggml_nbytes(wk));
    }
};

std::vector<float> attend(ggml_backend_t backend, const PrefixCache & pc, const std::vector<float> & x, int n_new) {
    ggml_init_params p = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_context * c = ctx.get();
    ggml_tensor * in = ggml_new_tensor_2d(c, GGML_TYPE_F32, kDim, n_new);
    ggml_set_input(in);
    ggml_tensor * k_new = ggml_mul_mat(c, pc.wk, in);                            // F32 [kDim, n_new]
    ggml_tensor * k_all = ggml_concat(c, pc.keys, k_new, 1); // expect-warning: ggml-type-mismatch
    ggml_tensor * q = ggml_view_2d(c, in, kDim, 1, in->nb[1], (n_new - 1) * in->nb[1]);
    ggml_tensor * att = ggml_soft_max(c, ggml_mul_mat(c, k_all, q));            // [kPrefix+n_new, 1]
    ggml_set_output(att);
    ggml_cgraph * gf = ggml_new_graph(c);
    ggml_build_forward_expand(gf, att);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_backend_tensor_set(in, x.data(), 0, ggml_nbytes(in));
    ggml_backend_graph_compute(backend, gf);
    std::vector<float> out(static_cast<size_t>(ggml_nelements(att)));
    ggml_backend_tensor_get(att, out.data(), 0, ggml_nbytes(att));
    return out;
}

// reads the cached keys back as F32, whatever the cache's element type
std::vector<float> cached_keys(const PrefixCache & pc) {
    std::vector<float> out(static_cast<size_t>(ggml_nelements(pc.keys)));
    if (pc.keys->type == GGML_TYPE_F16) {
        std::vector<ggml_fp16_t> h(out.size());
        ggml_backend_tensor_get(pc.keys, h.data(), 0, ggml_nbytes(pc.keys));
        ggml_fp16_to_fp32_row(h.data(), out.data(), static_cast<int64_t>(out.size()));
    } else {
        ggml_backend_tensor_get(pc.keys, out.data(), 0, ggml_nbytes(pc.keys));
    }
    return out;
}

void describe(const PrefixCache & pc, ggml_backend_t backend) {
    const std::vector<float> k = cached_keys(pc);
    float norm = 0.0f;
    for (float v : k) norm += v * v;
    std::printf("prefix cache: %s, %zu bytes in %s (%s), |k| = %.3f\n", ggml_type_name(pc.keys->type),
                ggml_nbytes(pc.keys), ggml_backend_buffer_name(pc.buf.get()),
                ggml_backend_buffer_is_host(pc.buf.get()) ? "host" : "device", std::sqrt(norm));
    (void) backend;
}

int max_new_from_env() {
    const char * v = std::getenv("MAX_NEW");
    const int n = v != nullptr ? std::atoi(v) : 3;
    return n >= 1 && n <= 8 ? n : 3;
}

} // namespace

int main() {
    ggml_backend_ptr backend(ggml_backend_init_best());
    const ggml_type type = cache_type_from_env();
    std::printf("backend %s, cache %s\n", ggml_backend_name(backend.get()), ggml_type_name(type));
    PrefixCache pc(backend.get(), type);
    describe(pc, backend.get());
    const int max_new = max_new_from_env();
    for (int n_new = 1; n_new <= max_new; ++n_new) {
        std::vector<float> x(kDim * n_new);
        for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.5f * static_cast<float>(i));
        std::vector<float> att = attend(backend.get(), pc, x, n_new);
        float on_prefix = 0.0f;
        for (int i = 0; i < kPrefix; ++i) on_prefix += att[i];
        std::printf("n_new %d: %.3f of the attention on the prefix\n", n_new, on_prefix);
    }
    return 0;
}
