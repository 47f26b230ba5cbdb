// Multi-sequence KV cache with defragmentation: several sequences are prefilled into one cache
// (cells tagged by sequence id), a finished sequence is removed, and when the holes pass a
// threshold the cache is compacted by moving the live cells down, layer by layer, before
// the next attention read over the first n_used cells.
// run-args: --gpu 1 --n-seq 3 --tokens 5
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kEmbd = 8;
constexpr int kCtx = 32;
constexpr int kLayers = 2;

struct Cell {
    int pos = -1;
    int seq = -1;
    bool empty() const { return seq < 0; }
};

class KvCache {
  public:
    KvCache(ggml_backend_buffer_type_t buft) {
        ggml_init_params ip = {ggml_tensor_overhead() * 2 * kLayers, nullptr, true};
        ctx_.reset(ggml_init(ip));
        for (int il = 0; il < kLayers; il++) {
            k_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCtx));
            v_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCtx));
        }
        buf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx_.get(), buft));
        ggml_backend_buffer_clear(buf_.get(), 0);
        cells_.resize(kCtx);
    }

    // writes n rows of K and V for sequence seq at the first free cells
    bool append(int seq, int n, const std::vector<float> &k_rows, const std::vector<float> &v_rows) {
        int start = n_used_;
        if (start + n > kCtx) return false;
        for (int il = 0; il < kLayers; il++) {
            const size_t row = k_[il]->nb[1];
            ggml_backend_tensor_set(k_[il], k_rows.data(), (size_t)start * row, (size_t)n * row);
            ggml_backend_tensor_set(v_[il], v_rows.data(), (size_t)start * row, (size_t)n * row);
        }
        for (int i = 0; i < n; i++) cells_[start + i] = {i, seq};
        n_used_ += n;
        return true;
    }

    void seq_rm(int seq) {
        for (Cell &c : cells_)
            if (c.seq == seq) c = Cell{};
    }

    float fragmentation() const {
        int holes = (int)std::count_if(cells_.begin(), cells_.begin() + n_used_, [](const Cell &c) { return c.empty(); });
        return n_used_ ? (float)holes / (float)n_used_ : 0.0f;
    }

    void defrag() {
        int dst = 0;
        for (int src = 0; src < n_used_; src++) {
            if (cells_[src].empty()) continue;
            int run = 1;
            while (src + run < n_used_ && !cells_[src + run].empty()) run++;
            if (src != dst) move_cells(src, dst, run);
            for (int i = 0; i < run; i++) cells_[dst + i] = cells_[src + i];
            dst += run;
            src += run - 1;
        }
        for (int i = dst; i < n_used_; i++) cells_[i] = Cell{};
        n_used_ = dst;
    }

    int n_used() const { return n_used_; }
    ggml_tensor *k(int il) const { return k_[il]; }
    ggml_tensor *v(int il) const { return v_[il]; }

  private:
    void move_cells(int src, int dst, int n) {
        for (int il = 0; il < kLayers; il++) {
            for (ggml_tensor *t : {k_[il], v_[il]}) {
                char *base = static_cast<char *>(t->data);
                std::memmove(base + (size_t)dst * t->nb[1], base + (size_t)src * t->nb[1], (size_t)n * t->nb[1]); // expect-error: ggml-host-access
            }
        }
    }

    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::vector<ggml_tensor *> k_, v_;
    std::vector<Cell> cells_;
    int n_used_ = 0;
};

// attention of one query over the cache's first n_used cells, for every layer
std::vector<float> attend(ggml_backend_t backend, const KvCache &kv, const std::vector<float> &q_host) {
    ggml_init_params ip = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(ip));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *q = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kEmbd);
    ggml_set_input(q);
    std::vector<ggml_tensor *> outs;
    for (int il = 0; il < kLayers; il++) {
        ggml_tensor *k = ggml_view_2d(ctx.get(), kv.k(il), kEmbd, kv.n_used(), kv.k(il)->nb[1], 0);
        ggml_tensor *v = ggml_view_2d(ctx.get(), kv.v(il), kEmbd, kv.n_used(), kv.v(il)->nb[1], 0);
        ggml_tensor *p = ggml_soft_max(ctx.get(), ggml_mul_mat(ctx.get(), k, q));              // [n_used]
        ggml_tensor *o = ggml_mul_mat(ctx.get(), ggml_cont(ctx.get(), ggml_transpose(ctx.get(), v)), p); // [E]
        ggml_set_output(o);
        ggml_build_forward_expand(gf, o);
        outs.push_back(o);
    }
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_backend_tensor_set(q, q_host.data(), 0, ggml_nbytes(q));
    ggml_backend_graph_compute(backend, gf);
    std::vector<float> res;
    for (ggml_tensor *o : outs) {
        std::vector<float> r(kEmbd);
        ggml_backend_tensor_get(o, r.data(), 0, ggml_nbytes(o));
        res.insert(res.end(), r.begin(), r.end());
    }
    return res;
}

} // namespace

int main(int argc, char **argv) {
    int gpu = 0, n_seq = 3, n_tok = 4;
    float defrag_thold = 0.1f;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--gpu") gpu = std::atoi(argv[i + 1]);
        else if (a == "--n-seq") n_seq = std::atoi(argv[i + 1]);
        else if (a == "--tokens") n_tok = std::atoi(argv[i + 1]);
    }
    n_seq = std::max(2, std::min(n_seq, 4));
    n_tok = std::max(1, std::min(n_tok, kCtx / 4));

    ggml_backend_ptr backend(ggml_backend_cuda_init(gpu));
    if (!backend) return 1;
    KvCache kv(ggml_backend_cuda_buffer_type(gpu));
    for (int s = 0; s < n_seq; s++) {
        std::vector<float> kr((size_t)n_tok * kEmbd), vr((size_t)n_tok * kEmbd);
        for (size_t i = 0; i < kr.size(); i++) {
            kr[i] = std::sin(0.3f * (float)(i + 1) + (float)s);
            vr[i] = (float)s + 0.01f * (float)i;
        }
        if (!kv.append(s, n_tok, kr, vr)) return 1;
    }
    kv.seq_rm(1); // sequence 1 finished
    std::printf("kv: %d cells used, fragmentation %.2f\n", kv.n_used(), kv.fragmentation());
    if (kv.fragmentation() > defrag_thold) kv.defrag();
    std::printf("kv: after defrag %d cells used\n", kv.n_used());

    std::vector<float> q(kEmbd, 0.25f);
    std::vector<float> out = attend(backend.get(), kv, q);
    std::printf("kv: attention out[0] layer0 %.4f layer1 %.4f\n", out[0], out[kEmbd]);
    return 0;
}
