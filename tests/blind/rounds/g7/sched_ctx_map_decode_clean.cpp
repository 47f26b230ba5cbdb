// run-args: 7 5
//
// Decoder whose layers are split over every GPU and the CPU (last layer on the CPU), with one
// context per buffer type (llama.cpp's ctx_map). Each layer's KV cache lives with its weights.
// ggml_backend_sched runs the whole graph; an eval callback watches each layer's output and
// reads it through the host pointer only when it sits in a host buffer.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

static constexpr int kEmbd = 16;
static constexpr int kHead = 2;
static constexpr int kCtx = 24;
static constexpr int kVocab = 32;

struct Layer {
    size_t dev = 0; // index into Runtime::devices
    ggml_tensor *wq = nullptr, *wk = nullptr, *wv = nullptr, *wo = nullptr;
    ggml_tensor *k_cache = nullptr, *v_cache = nullptr;
};

struct Runtime {
    std::vector<ggml_backend_dev_t> devices; // GPUs first, the CPU last
    std::vector<ggml_backend_ptr> backends;
    std::map<ggml_backend_buffer_type_t, ggml_context_ptr> ctx_map;
    std::vector<ggml_backend_buffer_ptr> buffers;
    ggml_backend_sched_ptr sched;
};

struct Watch {
    int seen = 0;
    int read_in_place = 0;
    double last_norm = 0.0;
};

static ggml_context *ctx_for(Runtime &rt, ggml_backend_buffer_type_t buft) {
    auto it = rt.ctx_map.find(buft);
    if (it != rt.ctx_map.end()) return it->second.get();
    ggml_init_params ip = { ggml_tensor_overhead() * 64, nullptr, true };
    ggml_context *ctx = ggml_init(ip);
    rt.ctx_map[buft].reset(ctx);
    return ctx;
}

static bool watch_cb(ggml_tensor *t, bool ask, void *ud) {
    if (ask) return std::strncmp(t->name, "l_out", 5) == 0;
    auto *w = static_cast<Watch *>(ud);
    std::vector<float> tmp;
    const float *p;
    if (ggml_backend_buffer_is_host(t->buffer)) {
        p = static_cast<const float *>(t->data);
        w->read_in_place++;
    } else {
        tmp.resize(ggml_nelements(t));
        ggml_backend_tensor_get(t, tmp.data(), 0, ggml_nbytes(t));
        p = tmp.data();
    }
    double s = 0.0;
    for (int64_t i = 0; i < ggml_nelements(t); i++) s += (double) p[i] * p[i];
    w->last_norm = std::sqrt(s);
    w->seen++;
    return true;
}

static void randomize(ggml_tensor *t, unsigned &seed) {
    std::vector<float> v(ggml_nelements(t));
    for (auto &x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = 0.3f * ((float) (seed >> 20) / 4096.0f - 0.5f);
    }
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

int main(int argc, char **argv) {
    int n_layer = argc > 1 ? std::atoi(argv[1]) : 4;
    int n_tokens = argc > 2 ? std::atoi(argv[2]) : 4;
    if (n_layer < 1) n_layer = 1;
    if (n_layer > 32) n_layer = 32;
    if (n_tokens < 1 || n_tokens > kCtx) n_tokens = 4;

    Runtime rt;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t d = ggml_backend_dev_get(i);
        if (ggml_backend_dev_type(d) == GGML_BACKEND_DEVICE_TYPE_GPU) rt.devices.push_back(d);
    }
    rt.devices.push_back(ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU));
    for (ggml_backend_dev_t d : rt.devices) rt.backends.emplace_back(ggml_backend_dev_init(d, nullptr));

    // token embeddings on the CPU, layers spread over the devices, last layer on the CPU
    ggml_tensor *tok_embd = ggml_new_tensor_2d(ctx_for(rt, ggml_backend_cpu_buffer_type()), GGML_TYPE_F32, kEmbd, kVocab);
    std::vector<std::unique_ptr<Layer>> layers;
    for (int il = 0; il < n_layer; il++) {
        auto L = std::make_unique<Layer>();
        L->dev = il == n_layer - 1 ? rt.devices.size() - 1 : (size_t) il * (rt.devices.size() - 1) / n_layer;
        ggml_context *ctx = ctx_for(rt, ggml_backend_dev_buffer_type(rt.devices[L->dev]));
        L->wq = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kEmbd, kEmbd);
        L->wk = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kEmbd, kEmbd);
        L->wv = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kEmbd, kEmbd);
        L->wo = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kEmbd, kEmbd);
        L->k_cache = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kEmbd, kCtx);
        L->v_cache = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, kEmbd, kCtx);
        layers.push_back(std::move(L));
    }
    for (auto &kv : rt.ctx_map) {
        ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors_from_buft(kv.second.get(), kv.first);
        if (!buf) {
            std::fprintf(stderr, "failed to allocate %s\n", ggml_backend_buft_name(kv.first));
            return 1;
        }
        ggml_backend_buffer_clear(buf, 0);
        ggml_backend_buffer_set_usage(buf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
        rt.buffers.emplace_back(buf);
    }
    unsigned seed = 99;
    randomize(tok_embd, seed);
    for (auto &L : layers) {
        for (ggml_tensor *t : { L->wq, L->wk, L->wv, L->wo }) randomize(t, seed);
    }

    std::vector<ggml_backend_t> raw;
    for (auto &b : rt.backends) raw.push_back(b.get());
    rt.sched.reset(ggml_backend_sched_new(raw.data(), nullptr, (int) raw.size(), 2048, false, false));
    Watch watch;
    ggml_backend_sched_set_eval_callback(rt.sched.get(), watch_cb, &watch);

    const int hd = kEmbd / kHead;
    int token = 1;
    for (int pos = 0; pos < n_tokens; pos++) {
        ggml_init_params ip = { ggml_tensor_overhead() * 2048 + ggml_graph_overhead_custom(2048, false), nullptr, true };
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_context *c = ctx.get();
        ggml_cgraph *gf = ggml_new_graph_custom(c, 2048, false);
        ggml_tensor *inp = ggml_new_tensor_1d(c, GGML_TYPE_I32, 1);
        ggml_set_input(inp);
        ggml_tensor *x = ggml_get_rows(c, tok_embd, inp);
        const int n_kv = pos + 1;
        for (int il = 0; il < n_layer; il++) {
            const Layer &L = *layers[il];
            ggml_tensor *h = ggml_rms_norm(c, x, 1e-6f);
            ggml_tensor *q = ggml_mul_mat(c, L.wq, h);
            ggml_build_forward_expand(gf, ggml_cpy(c, ggml_mul_mat(c, L.wk, h), ggml_view_1d(c, L.k_cache, kEmbd, pos * L.k_cache->nb[1])));
            ggml_build_forward_expand(gf, ggml_cpy(c, ggml_mul_mat(c, L.wv, h), ggml_view_1d(c, L.v_cache, kEmbd, pos * L.v_cache->nb[1])));
            ggml_tensor *K = ggml_permute(c, ggml_view_3d(c, L.k_cache, hd, kHead, n_kv, hd * sizeof(float), L.k_cache->nb[1], 0), 0, 2, 1, 3);
            ggml_tensor *V = ggml_cont(c, ggml_permute(c, ggml_view_3d(c, L.v_cache, hd, kHead, n_kv, hd * sizeof(float), L.v_cache->nb[1], 0), 1, 2, 0, 3));
            ggml_tensor *Q = ggml_permute(c, ggml_reshape_3d(c, q, hd, kHead, 1), 0, 2, 1, 3);
            ggml_tensor *kq = ggml_soft_max(c, ggml_scale(c, ggml_mul_mat(c, K, Q), 1.0f / std::sqrt((float) hd)));
            ggml_tensor *o = ggml_cont(c, ggml_permute(c, ggml_mul_mat(c, V, kq), 0, 2, 1, 3));
            x = ggml_add(c, x, ggml_mul_mat(c, L.wo, ggml_reshape_2d(c, o, kEmbd, 1)));
            ggml_set_name(x, ("l_out-" + std::to_string(il)).c_str());
        }
        ggml_tensor *logits = ggml_mul_mat(c, tok_embd, x);
        ggml_set_output(logits);
        ggml_build_forward_expand(gf, logits);

        ggml_backend_sched_reset(rt.sched.get());
        if (!ggml_backend_sched_alloc_graph(rt.sched.get(), gf)) {
            std::fprintf(stderr, "sched alloc failed\n");
            return 1;
        }
        ggml_backend_tensor_set(inp, &token, 0, sizeof token);
        if (ggml_backend_sched_graph_compute(rt.sched.get(), gf) != GGML_STATUS_SUCCESS) return 1;
        std::vector<float> lg(kVocab);
        ggml_backend_tensor_get(logits, lg.data(), 0, sizeof(float) * kVocab);
        int best = 0;
        for (int i = 1; i < kVocab; i++) if (lg[i] > lg[best]) best = i;
        std::printf("pos %d: token %d, splits %d, |l_out| %.4f\n", pos, best, ggml_backend_sched_get_n_splits(rt.sched.get()), watch.last_norm);
        token = best;
    }
    std::printf("watched %d layer outputs (%d in place) over %zu devices\n", watch.seen, watch.read_in_place, rt.devices.size());
    return 0;
}
