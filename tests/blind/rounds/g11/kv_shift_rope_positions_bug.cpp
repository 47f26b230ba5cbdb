// llama.cpp-style context shift: when the context fills up, the oldest half of the cells is
// discarded and the K cache of the remaining cells is re-roped by the position delta, in a
// graph of ggml_rope_ext over per-layer views of the GPU K cache, then copied back.
// The mistake: the cache keeps its cell positions as int64_t (the `kv_cell::pos` type), and
// the shift input is created with the matching GGML_TYPE_I64; ggml_rope_ext takes I32
// positions.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kHeadDim = 16;
constexpr int kHeads = 2;
constexpr int kCtx = 32;
constexpr int kLayers = 3;

using pos_t = int64_t;

struct kv_cell {
    pos_t pos = -1;
    int seq = -1;
    bool empty() const { return pos < 0; }
};

// what ggml type holds a host-side array of T
template <typename T> constexpr ggml_type ggml_type_of();
template <> constexpr ggml_type ggml_type_of<int32_t>() { return GGML_TYPE_I32; }
template <> constexpr ggml_type ggml_type_of<int64_t>() { return GGML_TYPE_I64; }
template <> constexpr ggml_type ggml_type_of<float>() { return GGML_TYPE_F32; }

class KvCache {
  public:
    KvCache(ggml_backend_t backend) : backend_(backend) {
        ggml_init_params ip = {ggml_tensor_overhead() * 2 * kLayers, nullptr, true};
        ctx_.reset(ggml_init(ip));
        for (int il = 0; il < kLayers; il++) {
            ggml_tensor *k = ggml_new_tensor_3d(ctx_.get(), GGML_TYPE_F32, kHeadDim, kHeads, kCtx);
            ggml_tensor *v = ggml_new_tensor_3d(ctx_.get(), GGML_TYPE_F32, kHeadDim, kHeads, kCtx);
            ggml_format_name(k, "cache_k_l%d", il);
            ggml_format_name(v, "cache_v_l%d", il);
            k_.push_back(k);
            v_.push_back(v);
        }
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
        ggml_backend_buffer_clear(buf_.get(), 0);
        cells_.resize(kCtx);
    }

    void fill(int n) {
        for (int i = 0; i < n; i++) {
            cells_[i].pos = i;
            cells_[i].seq = 0;
        }
        std::vector<float> data(kHeadDim * kHeads * kCtx);
        for (size_t i = 0; i < data.size(); i++) data[i] = 0.01f * (float)(i % 97);
        for (ggml_tensor *k : k_) ggml_backend_tensor_set(k, data.data(), 0, ggml_nbytes(k));
    }

    // drops the first n_discard cells of seq 0 and moves the others back by n_discard
    int seq_shift(int n_discard) {
        int n_kept = 0;
        for (auto &c : cells_) {
            if (c.empty()) continue;
            if (c.pos < n_discard) {
                c = kv_cell();
            } else {
                c.pos -= n_discard;
                n_kept++;
            }
        }
        return n_kept;
    }

    void apply_shift(int n_discard) {
        ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());

        ggml_tensor *shift = build_shift_input(ctx.get());
        for (int il = 0; il < kLayers; il++) {
            ggml_tensor *k = k_[il];
            ggml_tensor *view = ggml_view_3d(ctx.get(), k, kHeadDim, kHeads, kCtx, k->nb[1], k->nb[2], 0);
            ggml_tensor *roped = ggml_rope_ext(ctx.get(), view, shift, nullptr, kHeadDim, 0, kCtx, 10000.0f, 1.0f, 0.0f, 1.0f, 0.0f, 0.0f); // expect-error: ggml-type-mismatch
            ggml_build_forward_expand(gf, ggml_cpy(ctx.get(), roped, view));
        }

        ggml_gallocr_ptr alloc(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
        ggml_gallocr_alloc_graph(alloc.get(), gf);

        std::vector<pos_t> delta(kCtx);
        for (int i = 0; i < kCtx; i++) delta[i] = cells_[i].empty() ? 0 : -n_discard;
        ggml_backend_tensor_set(shift, delta.data(), 0, ggml_nbytes(shift));
        ggml_backend_graph_compute(backend_, gf);
    }

    int used() const {
        int n = 0;
        for (const auto &c : cells_) n += !c.empty();
        return n;
    }

  private:
    ggml_tensor *build_shift_input(ggml_context *ctx) {
        ggml_tensor *t = ggml_new_tensor_1d(ctx, ggml_type_of<pos_t>(), kCtx);
        ggml_set_name(t, "k_shift");
        ggml_set_input(t);
        return t;
    }

    ggml_backend_t backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::vector<ggml_tensor *> k_, v_;
    std::vector<kv_cell> cells_;
};

} // namespace

int main() {
    ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
    if (!gpu) return 1;
    auto cache = std::make_unique<KvCache>(gpu.get());
    cache->fill(kCtx);

    const int n_discard = kCtx / 2;
    int kept = cache->seq_shift(n_discard);
    cache->apply_shift(n_discard);
    std::printf("context shift: kept %d cells, %d in use\n", kept, cache->used());
    return 0;
}
