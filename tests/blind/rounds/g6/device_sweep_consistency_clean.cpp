// provenance: blind round g6
// Runs the same small gated-MLP block on every device of the registry (CPU, CUDA0, CUDA1),
// each with its own weights buffer, allocator and backend, and checks the results agree.
// A helper that is called with every device in turn; host reads are guarded by is_host.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct BlockWeights {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *gate = nullptr;
    ggml_tensor *up = nullptr;
    ggml_tensor *down = nullptr;
};

static constexpr int kEmbd = 12;
static constexpr int kFf = 20;
static constexpr int kTok = 3;

static std::vector<float> reference_values(size_t n, float phase) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) v[i] = 0.1f * std::sin(phase + 0.13f * (float)i);
    return v;
}

static std::unique_ptr<BlockWeights> load_block(ggml_backend_dev_t dev) {
    auto w = std::make_unique<BlockWeights>();
    ggml_init_params ip = {ggml_tensor_overhead() * 3, nullptr, true};
    w->ctx.reset(ggml_init(ip));
    w->gate = ggml_new_tensor_2d(w->ctx.get(), GGML_TYPE_F32, kEmbd, kFf);
    w->up = ggml_new_tensor_2d(w->ctx.get(), GGML_TYPE_F32, kEmbd, kFf);
    w->down = ggml_new_tensor_2d(w->ctx.get(), GGML_TYPE_F32, kFf, kEmbd);
    w->buf.reset(ggml_backend_alloc_ctx_tensors_from_buft(w->ctx.get(), ggml_backend_dev_buffer_type(dev)));
    if (!w->buf) return nullptr;
    float phase = 0.0f;
    for (ggml_tensor *t : {w->gate, w->up, w->down}) {
        auto v = reference_values((size_t)ggml_nelements(t), phase += 1.0f);
        if (ggml_backend_buffer_is_host(w->buf.get())) {
            std::memcpy(t->data, v.data(), ggml_nbytes(t));
        } else {
            ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
        }
    }
    return w;
}

static std::vector<float> run_block(ggml_backend_t backend, const BlockWeights &w, const std::vector<float> &x) {
    ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(gp));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *in = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, kTok);
    ggml_set_input(in);
    ggml_tensor *g = ggml_silu(ctx.get(), ggml_mul_mat(ctx.get(), w.gate, in));
    ggml_tensor *u = ggml_mul_mat(ctx.get(), w.up, in);
    ggml_tensor *out = ggml_mul_mat(ctx.get(), w.down, ggml_mul(ctx.get(), g, u));
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_backend_tensor_set(in, x.data(), 0, ggml_nbytes(in));
    ggml_backend_graph_compute(backend, gf);
    std::vector<float> y((size_t)ggml_nelements(out));
    if (ggml_backend_buffer_is_host(out->buffer)) {
        for (size_t i = 0; i < y.size(); i++) y[i] = ggml_get_f32_1d(out, (int)i);
    } else {
        ggml_backend_tensor_get(out, y.data(), 0, ggml_nbytes(out));
    }
    return y;
}

// Host reference of the gated MLP, from the same generator as the device weights.
static std::vector<float> host_block(const std::vector<float> &x) {
    auto gate = reference_values((size_t)kEmbd * kFf, 1.0f);
    auto up = reference_values((size_t)kEmbd * kFf, 2.0f);
    auto down = reference_values((size_t)kFf * kEmbd, 3.0f);
    std::vector<float> y((size_t)kEmbd * kTok, 0.0f);
    for (int t = 0; t < kTok; t++) {
        std::vector<float> h((size_t)kFf);
        for (int f = 0; f < kFf; f++) {
            float g = 0.0f, u = 0.0f;
            for (int e = 0; e < kEmbd; e++) {
                g += gate[(size_t)(f * kEmbd + e)] * x[(size_t)(t * kEmbd + e)];
                u += up[(size_t)(f * kEmbd + e)] * x[(size_t)(t * kEmbd + e)];
            }
            h[(size_t)f] = g / (1.0f + std::exp(-g)) * u;
        }
        for (int e = 0; e < kEmbd; e++) {
            float acc = 0.0f;
            for (int f = 0; f < kFf; f++) acc += down[(size_t)(e * kFf + f)] * h[(size_t)f];
            y[(size_t)(t * kEmbd + e)] = acc;
        }
    }
    return y;
}

static const char *type_name(enum ggml_backend_dev_type t) {
    switch (t) {
    case GGML_BACKEND_DEVICE_TYPE_CPU: return "cpu";
    case GGML_BACKEND_DEVICE_TYPE_GPU: return "gpu";
    case GGML_BACKEND_DEVICE_TYPE_IGPU: return "igpu";
    default: return "accel";
    }
}

int main() {
    std::unordered_map<std::string, ggml_backend_ptr> backends;
    std::unordered_map<std::string, std::unique_ptr<BlockWeights>> weights;
    std::vector<std::string> order;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        std::string name = ggml_backend_dev_name(dev);
        ggml_backend_ptr be(ggml_backend_dev_init(dev, nullptr));
        if (!be) continue;
        auto w = load_block(dev);
        if (!w) continue;
        backends[name] = std::move(be);
        weights[name] = std::move(w);
        order.push_back(name);
        std::printf("device %-6s (%s): %s\n", name.c_str(), type_name(ggml_backend_dev_type(dev)), ggml_backend_dev_description(dev));
    }
    if (order.empty()) return 1;

    std::vector<float> x((size_t)kEmbd * kTok);
    for (size_t i = 0; i < x.size(); i++) x[i] = (float)((int)(i % 5) - 2) * 0.3f;

    std::vector<float> ref;
    const std::vector<float> host_ref = host_block(x);
    double worst = 0.0;
    for (const auto &name : order) {
        auto y = run_block(backends.at(name).get(), *weights.at(name), x);
        if (ref.empty()) ref = y;
        double diff = 0.0;
        for (size_t i = 0; i < y.size(); i++) diff = std::fmax(diff, std::fabs((double)y[i] - ref[i]));
        worst = std::fmax(worst, diff);
        double herr = 0.0;
        for (size_t i = 0; i < y.size(); i++) herr = std::fmax(herr, std::fabs((double)y[i] - host_ref[i]));
        if (herr > 1e-3) std::printf("  %s differs from the host reference by %.2e\n", name.c_str(), herr);
        std::printf("%-6s y[0]=%+.6f max|diff| vs %s = %.2e\n", name.c_str(), y[0], order.front().c_str(), diff);
    }
    weights.clear();
    backends.clear();
    return worst < 1e-4 ? 0 : 3;
}
