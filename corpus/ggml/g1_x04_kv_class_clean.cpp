// corpus/ggml/g1_x04_kv_class_clean.cpp — from blind round g1 (x04_kv_class_clean.cpp, labelled by running it on real ggml and the emulated GPU): an incremental decoder with a KvCache class: K and V live in one
// buffer of the device picked by DECODER_DEVICE (gpu|cpu), new rows are written by the graph
// with ggml_set_rows (I64 slot indices), and attention reads 2-D views of the cache. A host
// mirror of the cache, allocated in a CPU buffer and refreshed with ggml_backend_tensor_copy,
// is what the debug dump reads directly.
// run-env: DECODER_DEVICE=gpu
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

namespace {

constexpr int kDim = 8;
constexpr int kCtx = 12;

class KvCache {
public:
    KvCache(ggml_backend_t backend, int n_ctx) : n_ctx_(n_ctx) {
        ggml_init_params p = { ggml_tensor_overhead() * 2, nullptr, true };
        ctx_.reset(ggml_init(p));
        k_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kDim, n_ctx);
        v_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kDim, n_ctx);
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
        ggml_backend_buffer_clear(buf_.get(), 0);

        ggml_init_params hp = { ggml_tensor_overhead(), nullptr, true };
        host_ctx_.reset(ggml_init(hp));
        k_host_ = ggml_dup_tensor(host_ctx_.get(), k_);
        host_buf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(host_ctx_.get(), ggml_backend_cpu_buffer_type()));
    }

    // graph ops that store this step's k/v at slot `pos`
    void store(ggml_context * ctx, ggml_cgraph * gf, ggml_tensor * k_cur, ggml_tensor * v_cur, ggml_tensor * slot) const {
        ggml_build_forward_expand(gf, ggml_set_rows(ctx, k_, k_cur, slot));
        ggml_build_forward_expand(gf, ggml_set_rows(ctx, v_, v_cur, slot));
    }
    ggml_tensor * keys(ggml_context * ctx, int n) const { return ggml_view_2d(ctx, k_, kDim, n, k_->nb[1], 0); }
    ggml_tensor * values(ggml_context * ctx, int n) const { return ggml_view_2d(ctx, v_, kDim, n, v_->nb[1], 0); }

    void dump_keys(int n) {
        ggml_backend_tensor_copy(k_, k_host_);
        const float * k = static_cast<const float *>(k_host_->data);
        for (int i = 0; i < n; ++i) {
            std::printf("  k[%d][0..1] = %+.3f %+.3f\n", i, k[i * kDim], k[i * kDim + 1]);
        }
    }
    int n_ctx() const { return n_ctx_; }

private:
    int n_ctx_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_context_ptr host_ctx_;
    ggml_backend_buffer_ptr host_buf_;
    ggml_tensor * k_ = nullptr;
    ggml_tensor * v_ = nullptr;
    ggml_tensor * k_host_ = nullptr;
};

struct Proj {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * wq = nullptr;
    ggml_tensor * wk = nullptr;
    ggml_tensor * wv = nullptr;
};

void proj_init(Proj & pr, ggml_backend_t backend) {
    ggml_init_params p = { ggml_tensor_overhead() * 3, nullptr, true };
    pr.ctx.reset(ggml_init(p));
    pr.wq = ggml_new_tensor_2d(pr.ctx.get(), GGML_TYPE_F32, kDim, kDim);
    pr.wk = ggml_new_tensor_2d(pr.ctx.get(), GGML_TYPE_F32, kDim, kDim);
    pr.wv = ggml_new_tensor_2d(pr.ctx.get(), GGML_TYPE_F32, kDim, kDim);
    pr.buf.reset(ggml_backend_alloc_ctx_tensors(pr.ctx.get(), backend));
    std::vector<float> m(kDim * kDim);
    int k = 0;
    for (ggml_tensor * t : { pr.wq, pr.wk, pr.wv }) {
        for (int i = 0; i < kDim * kDim; ++i) m[i] = 0.2f * std::sin(0.13f * static_cast<float>(i * (k + 1)));
        ggml_backend_tensor_set(t, m.data(), 0, ggml_nbytes(t));
        ++k;
    }
}

std::vector<float> step(ggml_backend_t backend, const Proj & pr, KvCache & cache, const std::vector<float> & x, int pos) {
    ggml_init_params p = { ggml_tensor_overhead() * 48 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_cgraph * gf = ggml_new_graph(ctx.get());
    ggml_tensor * in = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kDim, 1);
    ggml_tensor * slot = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I64, 1);
    ggml_set_input(in);
    ggml_set_input(slot);

    ggml_tensor * q = ggml_mul_mat(ctx.get(), pr.wq, in);
    cache.store(ctx.get(), gf, ggml_mul_mat(ctx.get(), pr.wk, in), ggml_mul_mat(ctx.get(), pr.wv, in), slot);
    const int n_kv = pos + 1;
    ggml_tensor * att = ggml_soft_max(ctx.get(), ggml_scale(ctx.get(), ggml_mul_mat(ctx.get(), cache.keys(ctx.get(), n_kv), q), 1.0f / std::sqrt(static_cast<float>(kDim))));
    ggml_tensor * vt = ggml_cont(ctx.get(), ggml_transpose(ctx.get(), cache.values(ctx.get(), n_kv)));
    ggml_tensor * out = ggml_add(ctx.get(), in, ggml_mul_mat(ctx.get(), vt, att));
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);

    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    const int64_t slot_v = pos;
    ggml_backend_tensor_set(slot, &slot_v, 0, sizeof(slot_v));
    ggml_backend_tensor_set(in, x.data(), 0, ggml_nbytes(in));
    ggml_backend_graph_compute(backend, gf);
    std::vector<float> y(kDim);
    ggml_backend_tensor_get(out, y.data(), 0, ggml_nbytes(out));
    return y;
}

} // namespace

int main() {
    const char * env = std::getenv("DECODER_DEVICE");
    const std::string want = env ? env : "cpu";
    ggml_backend_ptr backend(want == "gpu" ? ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr) : nullptr);
    if (!backend) backend.reset(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr));
    std::printf("decoder on %s\n", ggml_backend_name(backend.get()));

    Proj pr;
    proj_init(pr, backend.get());
    KvCache cache(backend.get(), kCtx);

    std::vector<float> x(kDim, 0.5f);
    for (int pos = 0; pos < 5 && pos < cache.n_ctx(); ++pos) {
        x = step(backend.get(), pr, cache, x, pos);
        std::printf("pos %d: y[0]=%+.4f\n", pos, x[0]);
    }
    cache.dump_keys(3);
    return 0;
}
