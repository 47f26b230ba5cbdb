// run-args: --scale 0.5 --rank 4
//
// Merges LoRA adapters into a base model's projection weights ("export merged model"). The base
// model is loaded onto a GPU of the registry; the adapters are host vectors. The merge loop
// updates each weight in place through its data pointer.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct LoraPair {
    int rank = 0;
    int64_t n_in = 0, n_out = 0;
    std::vector<float> a; // [rank][n_in]
    std::vector<float> b; // [n_out][rank]
};

struct BaseModel {
    ggml_context_ptr ctx;
    ggml_backend_ptr backend;
    ggml_backend_buffer_ptr buf;
    std::vector<std::pair<std::string, ggml_tensor *>> projections;
};

static ggml_backend_dev_t pick_gpu() {
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!dev) {
        std::fprintf(stderr, "no GPU in the registry\n");
        std::exit(1);
    }
    return dev;
}

static std::unique_ptr<BaseModel> load_base(int n_layer, int64_t n_embd) {
    auto m = std::make_unique<BaseModel>();
    ggml_init_params ip = { ggml_tensor_overhead() * (size_t) (4 * n_layer), nullptr, true };
    m->ctx.reset(ggml_init(ip));
    static const char *kinds[] = { "attn_q", "attn_k", "attn_v", "attn_output" };
    for (int il = 0; il < n_layer; il++) {
        for (const char *k : kinds) {
            ggml_tensor *t = ggml_new_tensor_2d(m->ctx.get(), GGML_TYPE_F32, n_embd, n_embd);
            std::string name = "blk." + std::to_string(il) + "." + k + ".weight";
            ggml_set_name(t, name.c_str());
            m->projections.emplace_back(name, t);
        }
    }
    ggml_backend_dev_t dev = pick_gpu();
    m->backend.reset(ggml_backend_dev_init(dev, nullptr));
    m->buf.reset(ggml_backend_alloc_ctx_tensors_from_buft(m->ctx.get(), ggml_backend_dev_buffer_type(dev)));
    if (!m->buf) return nullptr;
    ggml_backend_buffer_set_usage(m->buf.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);

    std::vector<float> init(n_embd * n_embd);
    for (auto &p : m->projections) {
        for (int64_t i = 0; i < (int64_t) init.size(); i++) init[i] = (i % (n_embd + 1) == 0) ? 1.0f : 0.0f;
        ggml_backend_tensor_set(p.second, init.data(), 0, ggml_nbytes(p.second));
    }
    return m;
}

static LoraPair make_adapter(int rank, int64_t n_in, int64_t n_out, unsigned seed) {
    LoraPair lp;
    lp.rank = rank;
    lp.n_in = n_in;
    lp.n_out = n_out;
    lp.a.resize((size_t) rank * n_in);
    lp.b.resize((size_t) n_out * rank);
    auto rnd = [&seed]() {
        seed = seed * 214013u + 2531011u;
        return ((seed >> 16) & 0x7fff) / 32768.0f - 0.5f;
    };
    for (auto &x : lp.a) x = rnd();
    for (auto &x : lp.b) x = 0.1f * rnd();
    return lp;
}

// W[out][in] += scale * sum_r B[out][r] * A[r][in]
static void merge_into(ggml_tensor *w_t, const LoraPair &lp, float scale) {
    float *w = (float *) w_t->data;
    for (int64_t o = 0; o < lp.n_out; o++) {
        for (int64_t i = 0; i < lp.n_in; i++) {
            float delta = 0.0f;
            for (int r = 0; r < lp.rank; r++) delta += lp.b[o * lp.rank + r] * lp.a[r * lp.n_in + i];
            w[o * lp.n_in + i] += scale * delta; // expect-error: ggml-host-access
        }
    }
}

static double checksum(const ggml_tensor *t) {
    std::vector<float> v(ggml_nelements(t));
    ggml_backend_tensor_get(t, v.data(), 0, ggml_nbytes(t));
    double s = 0.0;
    for (float x : v) s += std::fabs(x);
    return s;
}

int main(int argc, char **argv) {
    float scale = 1.0f;
    int rank = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--scale")) scale = (float) std::atof(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--rank")) rank = std::atoi(argv[i + 1]);
    }
    if (rank < 1) rank = 1;

    const int n_layer = 2;
    const int64_t n_embd = 16;
    std::unique_ptr<BaseModel> base = load_base(n_layer, n_embd);
    if (!base) {
        std::fprintf(stderr, "failed to load the base model\n");
        return 1;
    }
    std::printf("base on %s, %zu projections\n", ggml_backend_buffer_name(base->buf.get()), base->projections.size());

    std::vector<std::pair<std::string, LoraPair>> adapters;
    unsigned seed = 42;
    for (const auto &p : base->projections) {
        if (p.first.find("attn_q") == std::string::npos && p.first.find("attn_v") == std::string::npos) continue;
        adapters.emplace_back(p.first, make_adapter(rank, n_embd, n_embd, seed++));
    }

    auto find_weight = [&base](const std::string &name) -> ggml_tensor * {
        for (auto &p : base->projections) {
            if (p.first == name) return p.second;
        }
        return nullptr;
    };

    int merged = 0;
    for (const auto &ad : adapters) {
        ggml_tensor *w = find_weight(ad.first);
        if (!w) continue;
        merge_into(w, ad.second, scale / (float) rank);
        merged++;
    }
    std::printf("merged %d adapters (rank %d, scale %.2f)\n", merged, rank, scale);
    for (const auto &p : base->projections) std::printf("  %-28s %.4f\n", p.first.c_str(), checksum(p.second));
    return 0;
}
