// provenance: blind round g5
// lazy_tensor_loader: a model loader driven by a tensor manifest. Tensors are declared, the
// context is allocated on the chosen backend, then data is streamed in. A tensor the loader
// needs but the manifest lacks is created on demand.
// run-args: --backend gpu
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct TensorSpec {
    std::string name;
    std::array<int64_t, 2> ne;
};

static const std::vector<TensorSpec> kManifest = {
    {"token_embd.weight", {32, 50}},
    {"blk.0.attn_norm.weight", {32, 1}},
    {"blk.0.attn_q.weight", {32, 32}},
    {"blk.0.attn_k.weight", {32, 32}},
    {"output_norm.weight", {32, 1}},
};

class TensorStore {
public:
    explicit TensorStore(size_t max_tensors) {
        ggml_init_params ip = {max_tensors * ggml_tensor_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
    }

    ggml_tensor *declare(const TensorSpec &s) {
        ggml_tensor *t = s.ne[1] == 1 ? ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, s.ne[0])
                                       : ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, s.ne[0], s.ne[1]);
        ggml_set_name(t, s.name.c_str());
        by_name_[s.name] = t;
        return t;
    }

    ggml_tensor *get_or_create(const TensorSpec &s) {
        auto it = by_name_.find(s.name);
        return it != by_name_.end() ? it->second : declare(s);
    }

    void allocate(ggml_backend_t backend) {
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
        if (!buf_) throw std::runtime_error("allocation failed");
        ggml_backend_buffer_set_usage(buf_.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    }

    size_t size() const { return by_name_.size(); }
    size_t bytes() const { return buf_ ? ggml_backend_buffer_get_size(buf_.get()) : 0; }
    const std::map<std::string, ggml_tensor *> &all() const { return by_name_; }

private:
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::map<std::string, ggml_tensor *> by_name_;
};

// stands in for reading a GGUF: deterministic bytes per tensor name
static std::vector<float> synth_data(const std::string &name, int64_t n) {
    uint32_t h = 2166136261u;
    for (char c : name) h = (h ^ uint8_t(c)) * 16777619u;
    std::vector<float> v(n);
    for (int64_t i = 0; i < n; i++) {
        h = h * 1664525u + 1013904223u;
        v[i] = float(int32_t(h >> 9) % 1000) / 5000.0f;
    }
    return v;
}

static void upload(ggml_tensor *t) {
    std::vector<float> data = synth_data(ggml_get_name(t), ggml_nelements(t));
    ggml_backend_tensor_set(t, data.data(), 0, data.size() * sizeof(float));
}

static std::vector<float> rope_freqs(int n) {
    std::vector<float> f(n);
    for (int i = 0; i < n; i++) f[i] = 1.0f / std::pow(10000.0f, 2.0f * float(i) / float(2 * n));
    return f;
}

static size_t manifest_bytes() {
    size_t n = 0;
    for (const auto &s : kManifest) n += size_t(s.ne[0] * s.ne[1]) * sizeof(float);
    return n;
}

static bool manifest_ok() {
    std::map<std::string, int> seen;
    for (const auto &s : kManifest) {
        if (s.ne[0] <= 0 || s.ne[1] <= 0) return false;
        if (++seen[s.name] > 1) return false;
    }
    return true;
}

class Loader {
public:
    Loader(TensorStore &store, ggml_backend_t backend) : store_(store), backend_(backend) {}

    void load() {
        for (const auto &spec : kManifest) store_.declare(spec);
        store_.allocate(backend_);
        for (const auto &kv : store_.all()) upload(kv.second);

        // older checkpoints carry no rope frequency table: synthesise it
        TensorSpec rf{"rope_freqs.weight", {16, 1}};
        ggml_tensor *t = store_.get_or_create(rf);
        std::vector<float> f = rope_freqs(int(rf.ne[0]));
        ggml_backend_tensor_set(t, f.data(), 0, f.size() * sizeof(float)); // expect-error: ggml-buffer-not-set
    }

private:
    TensorStore &store_;
    ggml_backend_t backend_;
};

static double l2(ggml_tensor *t) {
    std::vector<float> v(ggml_nelements(t));
    ggml_backend_tensor_get(t, v.data(), 0, v.size() * sizeof(float));
    double s = 0;
    for (float x : v) s += double(x) * x;
    return std::sqrt(s);
}

int main(int argc, char **argv) {
    bool want_gpu = false;
    for (int i = 1; i + 1 < argc; i++)
        if (!std::strcmp(argv[i], "--backend")) want_gpu = std::strcmp(argv[i + 1], "gpu") == 0;

    ggml_backend_ptr backend(want_gpu ? ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr)
                                      : ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr));
    if (!backend) {
        std::fprintf(stderr, "no backend\n");
        return 1;
    }
    if (!manifest_ok()) {
        std::fprintf(stderr, "bad manifest\n");
        return 1;
    }
    std::printf("manifest: %zu tensors, %zu bytes\n", kManifest.size(), manifest_bytes());
    try {
        TensorStore store(kManifest.size() + 4);
        Loader loader(store, backend.get());
        loader.load();
        std::printf("%zu tensors, %zu bytes on %s\n", store.size(), store.bytes(), ggml_backend_name(backend.get()));
        for (const auto &kv : store.all()) std::printf("  %-24s |w| = %.4f\n", kv.first.c_str(), l2(kv.second));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "load failed: %s\n", e.what());
        return 1;
    }
    return 0;
}
