// provenance: blind round g5
// sched_kv_offload: weights on the main GPU, the KV cache on another device (chosen with
// --kv-device), decoding one token at a time through ggml_backend_sched, which inserts the copies.
// run-args: --kv-device CUDA1 --tokens 5
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kEmbd = 16;
constexpr int kCtx = 32;

struct Backends {
    std::vector<ggml_backend_ptr> owned;
    std::vector<ggml_backend_t> raw; // for the scheduler: GPUs first, CPU last
    std::unordered_map<std::string, ggml_backend_t> by_name;

    Backends() {
        ggml_backend_t cpu = nullptr;
        for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
            ggml_backend_dev_t dev = ggml_backend_dev_get(i);
            ggml_backend_t b = ggml_backend_dev_init(dev, nullptr);
            if (!b) continue;
            owned.emplace_back(b);
            if (ggml_backend_dev_type(dev) == GGML_BACKEND_DEVICE_TYPE_CPU) {
                cpu = b;
            } else {
                by_name[ggml_backend_dev_name(dev)] = b; // the cache may go to any GPU
                raw.push_back(b);
            }
        }
        if (!cpu) throw std::runtime_error("no CPU backend");
        raw.push_back(cpu);
    }

    ggml_backend_t main_backend() const { return raw.front(); } // a GPU if there is one
    ggml_backend_t find(const std::string &name) const {
        auto it = by_name.find(name);
        return it == by_name.end() ? main_backend() : it->second;
    }
};

struct Weights {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *wq = nullptr, *wk = nullptr, *wv = nullptr, *wo = nullptr;

    explicit Weights(ggml_backend_t backend) {
        ggml_init_params ip = {4 * ggml_tensor_overhead(), nullptr, true};
        ctx.reset(ggml_init(ip));
        ggml_tensor **all[] = {&wq, &wk, &wv, &wo};
        for (ggml_tensor **t : all) *t = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, kEmbd);
        buf.reset(ggml_backend_alloc_ctx_tensors(ctx.get(), backend));
        if (!buf) throw std::runtime_error("weights");
        int salt = 0;
        for (ggml_tensor **t : all) {
            std::vector<float> v(kEmbd * kEmbd);
            for (int i = 0; i < kEmbd * kEmbd; i++) v[i] = 0.2f * std::sin(0.17f * float(i) + float(salt));
            ggml_backend_tensor_set(*t, v.data(), 0, v.size() * sizeof(float));
            salt += 3;
        }
    }
};

struct KvCache {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *k = nullptr, *v = nullptr;
    int n = 0;

    explicit KvCache(ggml_backend_t backend) {
        ggml_init_params ip = {2 * ggml_tensor_overhead(), nullptr, true};
        ctx.reset(ggml_init(ip));
        k = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, kCtx);
        v = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, kCtx);
        ggml_set_name(k, "cache_k");
        ggml_set_name(v, "cache_v");
        buf.reset(ggml_backend_alloc_ctx_tensors(ctx.get(), backend));
        if (!buf) throw std::runtime_error("kv cache");
        ggml_backend_buffer_clear(buf.get(), 0);
    }
};

class Decoder {
public:
    Decoder(Backends &bk, const std::string &kv_device)
        : bk_(bk), w_(bk.main_backend()), kv_(bk.find(kv_device)) {
        sched_.reset(ggml_backend_sched_new(bk_.raw.data(), nullptr, int(bk_.raw.size()), 1024, false, true));
        ggml_init_params ip = {ggml_tensor_overhead() * 1024 + ggml_graph_overhead_custom(1024, false), nullptr, true};
        meta_.resize(ip.mem_size);
        // reserve with the largest graph
        kv_.n = kCtx - 1;
        ggml_backend_sched_reserve(sched_.get(), build());
        kv_.n = 0;
    }

    std::vector<float> step(const std::vector<float> &x) {
        ggml_backend_sched_reset(sched_.get());
        ggml_cgraph *gf = build();
        if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) throw std::runtime_error("sched alloc");
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "x"), x.data(), 0, x.size() * sizeof(float));
        ggml_backend_sched_graph_compute(sched_.get(), gf);
        std::vector<float> y(kEmbd);
        ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "y"), y.data(), 0, y.size() * sizeof(float));
        kv_.n++;
        return y;
    }

    int n_past() const { return kv_.n; }
    const char *kv_buffer_name() const { return ggml_backend_buffer_name(kv_.buf.get()); }

private:
    ggml_cgraph *build() {
        ggml_init_params ip = {meta_.size(), meta_.data(), true};
        ctx_.reset(ggml_init(ip));
        ggml_context *c = ctx_.get();
        ggml_cgraph *gf = ggml_new_graph_custom(c, 1024, false);
        ggml_tensor *x = ggml_new_tensor_1d(c, GGML_TYPE_F32, kEmbd);
        ggml_set_name(x, "x");
        ggml_set_input(x);
        ggml_tensor *q = ggml_mul_mat(c, w_.wq, x);
        ggml_tensor *k = ggml_mul_mat(c, w_.wk, x);
        ggml_tensor *v = ggml_mul_mat(c, w_.wv, x);
        ggml_build_forward_expand(gf, ggml_cpy(c, k, ggml_view_1d(c, kv_.k, kEmbd, kv_.n * kv_.k->nb[1])));
        ggml_build_forward_expand(gf, ggml_cpy(c, v, ggml_view_1d(c, kv_.v, kEmbd, kv_.n * kv_.v->nb[1])));
        const int n_kv = kv_.n + 1;
        ggml_tensor *K = ggml_view_2d(c, kv_.k, kEmbd, n_kv, kv_.k->nb[1], 0);
        ggml_tensor *V = ggml_view_2d(c, kv_.v, kEmbd, n_kv, kv_.v->nb[1], 0);
        ggml_tensor *att = ggml_soft_max(c, ggml_scale(c, ggml_mul_mat(c, K, q), 0.25f));
        ggml_tensor *o = ggml_mul_mat(c, ggml_cont(c, ggml_transpose(c, V)), att);
        ggml_tensor *y = ggml_mul_mat(c, w_.wo, o);
        // keep the projection with the weights
        ggml_backend_sched_set_tensor_backend(sched_.get(), y, bk_.main_backend());
        ggml_set_name(y, "y");
        ggml_set_output(y);
        ggml_build_forward_expand(gf, y);
        return gf;
    }

    Backends &bk_;
    Weights w_;
    KvCache kv_;
    ggml_backend_sched_ptr sched_;
    std::vector<uint8_t> meta_;
    ggml_context_ptr ctx_;
};

} // namespace

int main(int argc, char **argv) {
    std::string kv_device;
    int n_tokens = 4;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--kv-device")) kv_device = argv[i + 1];
        else if (!std::strcmp(argv[i], "--tokens")) n_tokens = std::atoi(argv[i + 1]);
    }
    if (n_tokens < 1 || n_tokens >= kCtx) n_tokens = 4;

    try {
        Backends bk;
        Decoder dec(bk, kv_device);
        std::printf("weights on %s, kv cache in %s\n", ggml_backend_name(bk.main_backend()), dec.kv_buffer_name());
        std::vector<float> x(kEmbd, 0.5f);
        for (int t = 0; t < n_tokens; t++) {
            std::vector<float> y = dec.step(x);
            std::printf("t=%d n_past=%d y0=%.5f\n", t, dec.n_past(), y[0]);
            x = y;
            for (float &v : x) v = std::tanh(v * 4.0f);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "fatal: %s\n", e.what());
        return 1;
    }
    return 0;
}
