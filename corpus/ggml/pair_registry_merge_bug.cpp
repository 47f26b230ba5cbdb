// corpus/ggml/pair_registry_merge_bug.cpp — an adapter merger that keeps its model's weights in
// a name registry, the way exporters do: std::vector<std::pair<std::string, ggml_tensor *>>
// filled by emplace_back(name, t), and a second index built with std::make_pair. The weights
// live on the registry's GPU. Merging a delta writes each weight in place through
// `(float *) entry.second->data`: device memory, on every path that gets there: an error.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

namespace exporter {

using Registry = std::vector<std::pair<std::string, ggml_tensor *>>;

struct Model {
    ggml_backend_t backend = nullptr;
    ggml_context *ctx = nullptr;
    ggml_backend_buffer_t buf = nullptr;
    Registry weights;
    std::vector<std::pair<int, ggml_tensor *>> by_layer;
};

static bool load(Model &m, int n_layer, int64_t n_embd) {
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!dev) return false;
    m.backend = ggml_backend_dev_init(dev, nullptr);
    ggml_init_params ip = {ggml_tensor_overhead() * (size_t) (2 * n_layer), nullptr, true};
    m.ctx = ggml_init(ip);
    for (int il = 0; il < n_layer; il++) {
        ggml_tensor *q = ggml_new_tensor_2d(m.ctx, GGML_TYPE_F32, n_embd, n_embd);
        ggml_tensor *v = ggml_new_tensor_2d(m.ctx, GGML_TYPE_F32, n_embd, n_embd);
        m.weights.emplace_back("blk." + std::to_string(il) + ".attn_q", q);
        m.weights.emplace_back("blk." + std::to_string(il) + ".attn_v", v);
        m.by_layer.push_back(std::make_pair(il, q));
    }
    m.buf = ggml_backend_alloc_ctx_tensors_from_buft(m.ctx, ggml_backend_dev_buffer_type(dev));
    if (!m.buf) return false;
    std::vector<float> eye((size_t) (n_embd * n_embd), 0.0f);
    for (int64_t i = 0; i < n_embd; i++) eye[(size_t) (i * n_embd + i)] = 1.0f;
    for (auto &entry : m.weights) ggml_backend_tensor_set(entry.second, eye.data(), 0, ggml_nbytes(entry.second));
    return true;
}

static void merge_delta(const Model &m, float scale) {
    for (const auto &entry : m.weights) {
        float *w = (float *) entry.second->data;
        const int64_t n = ggml_nelements(entry.second);
        for (int64_t i = 0; i < n; i += 17) w[i] += scale; // expect-error: ggml-host-access
    }
}

} // namespace exporter

int main(int argc, char **argv) {
    float scale = argc > 1 ? (float) std::atof(argv[1]) : 0.25f;
    exporter::Model m;
    if (!exporter::load(m, 2, 8)) {
        std::fprintf(stderr, "no GPU model\n");
        return 1;
    }
    exporter::merge_delta(m, scale);
    std::printf("merged %zu weights\n", m.weights.size());
    ggml_backend_buffer_free(m.buf);
    ggml_free(m.ctx);
    ggml_backend_free(m.backend);
    return 0;
}
