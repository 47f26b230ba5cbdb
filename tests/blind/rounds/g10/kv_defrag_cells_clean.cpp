// provenance: blind round g10
// A llama.cpp-style unified KV cache with cell metadata (position and sequence set per cell):
// several sequences share the cache, a finished sequence is removed (seq_rm) and leaves holes,
// and defrag() moves the live cells down with a graph of ggml_cpy between views of the cache,
// built in a scratch context after the cache buffer exists and computed on the cache's GPU
// backend. A forked sequence gets a private copy of its parent's last cell through views set
// up with ggml_backend_view_init and ggml_backend_tensor_copy. Decoding goes through a
// scheduler over the GPU and the CPU, with the token embeddings kept in a CPU buffer.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int64_t kEmbd = 8;
constexpr int64_t kCells = 24;
constexpr int64_t kVocab = 20;
constexpr int kLayers = 2;

struct KvCell {
  int32_t pos = -1;
  std::set<int> seq;
  bool empty() const { return seq.empty(); }
};

class KvCache {
 public:
  explicit KvCache(ggml_backend_t backend) : backend_(backend), cells_(kCells) {
    ggml_init_params p = {ggml_tensor_overhead() * 2 * kLayers, nullptr, true};
    ctx_.reset(ggml_init(p));
    for (int il = 0; il < kLayers; ++il) {
      k_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCells));
      v_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCells));
      ggml_format_name(k_.back(), "cache_k_l%d", il);
      ggml_format_name(v_.back(), "cache_v_l%d", il);
    }
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
    if (!buf_) throw std::runtime_error("kv cache: out of memory");
    ggml_backend_buffer_clear(buf_.get(), 0);
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
  }

  int find_slot() const {
    for (int i = 0; i < kCells; ++i)
      if (cells_[i].empty()) return i;
    return -1;
  }

  void occupy(int cell, int seq, int32_t pos) {
    cells_[cell].pos = pos;
    cells_[cell].seq = {seq};
  }

  void seq_rm(int seq) {
    for (KvCell& c : cells_) {
      c.seq.erase(seq);
      if (c.empty()) c.pos = -1;
    }
  }

  // llama_kv_cache_seq_cp: the child shares the parent's cells, except the last one, which it
  // gets a private copy of (it will be overwritten differently by each branch's sampling).
  void seq_fork(int parent, int child) {
    int last = -1;
    for (int i = 0; i < kCells; ++i) {
      if (!cells_[i].seq.count(parent)) continue;
      cells_[i].seq.insert(child);
      if (last < 0 || cells_[i].pos > cells_[last].pos) last = i;
    }
    const int dst = find_slot();
    if (last < 0 || dst < 0) return;
    cells_[last].seq.erase(child);
    occupy(dst, child, cells_[last].pos);
    ggml_init_params p = {ggml_tensor_overhead() * 4 * kLayers, nullptr, true};
    ggml_context_ptr vctx(ggml_init(p));
    for (int il = 0; il < kLayers; ++il) {
      for (ggml_tensor* t : {k_[il], v_[il]}) {
        ggml_tensor* src = ggml_view_1d(vctx.get(), t, kEmbd, static_cast<size_t>(last) * t->nb[1]);
        ggml_tensor* dstv = ggml_view_1d(vctx.get(), t, kEmbd, static_cast<size_t>(dst) * t->nb[1]);
        ggml_backend_view_init(src);
        ggml_backend_view_init(dstv);
        ggml_backend_tensor_copy(src, dstv);
      }
    }
  }

  // Moves every live cell into the lowest free cell below it; returns the number of moves.
  int defrag() {
    std::vector<std::pair<int, int>> moves;  // from, to
    int hole = 0;
    for (int i = 0; i < kCells; ++i) {
      if (cells_[i].empty()) continue;
      while (hole < i && !cells_[hole].empty()) ++hole;
      if (hole < i) {
        moves.emplace_back(i, hole);
        cells_[hole] = cells_[i];
        cells_[i] = KvCell();
      }
    }
    if (moves.empty()) return 0;
    ggml_init_params p = {ggml_tensor_overhead() * (8 * kLayers * moves.size() + 8) + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr gctx(ggml_init(p));
    ggml_cgraph* gf = ggml_new_graph(gctx.get());
    for (const auto& mv : moves) {
      for (int il = 0; il < kLayers; ++il) {
        for (ggml_tensor* t : {k_[il], v_[il]}) {
          ggml_tensor* from = ggml_view_2d(gctx.get(), t, kEmbd, 1, t->nb[1], static_cast<size_t>(mv.first) * t->nb[1]);
          ggml_tensor* to = ggml_view_2d(gctx.get(), t, kEmbd, 1, t->nb[1], static_cast<size_t>(mv.second) * t->nb[1]);
          ggml_build_forward_expand(gf, ggml_cpy(gctx.get(), from, to));
        }
      }
    }
    if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) throw std::runtime_error("defrag: alloc");
    ggml_backend_graph_compute(backend_, gf);
    return static_cast<int>(moves.size());
  }

  // The attention mask of a batch: 0 where the cell is visible to the token, -inf elsewhere.
  std::vector<float> mask(int seq, const std::vector<int32_t>& pos) const {
    std::vector<float> m(kCells * pos.size(), -INFINITY);
    for (size_t t = 0; t < pos.size(); ++t)
      for (int i = 0; i < kCells; ++i)
        if (cells_[i].seq.count(seq) && cells_[i].pos <= pos[t]) m[t * kCells + i] = 0.0f;
    return m;
  }

  std::vector<float> read_cell(int il, int cell) const {
    std::vector<float> out(kEmbd);
    ggml_backend_tensor_get(k_[il], out.data(), static_cast<size_t>(cell) * k_[il]->nb[1], k_[il]->nb[1]);
    return out;
  }

  int used() const {
    int n = 0;
    for (const KvCell& c : cells_) n += !c.empty();
    return n;
  }

  ggml_tensor* k(int il) const { return k_[il]; }
  ggml_tensor* v(int il) const { return v_[il]; }

 private:
  ggml_backend_t backend_;
  std::vector<KvCell> cells_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  ggml_gallocr_ptr galloc_;
  std::vector<ggml_tensor*> k_, v_;
};

class Model {
 public:
  Model(ggml_backend_t gpu, ggml_backend_t cpu) : kv_(gpu) {
    ggml_init_params p = {ggml_tensor_overhead() * (4 * kLayers + 2), nullptr, true};
    ctx_gpu_.reset(ggml_init(p));
    ctx_cpu_.reset(ggml_init(p));
    tok_embd_ = ggml_new_tensor_2d(ctx_cpu_.get(), GGML_TYPE_F32, kEmbd, kVocab);
    output_ = ggml_new_tensor_2d(ctx_gpu_.get(), GGML_TYPE_F32, kEmbd, kVocab);
    for (int il = 0; il < kLayers; ++il)
      for (const char* n : {"wq", "wk", "wv", "wo"}) {
        ggml_tensor* t = ggml_new_tensor_2d(ctx_gpu_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
        ggml_format_name(t, "blk.%d.%s", il, n);
        weights_[t->name] = t;
      }
    buf_gpu_.reset(ggml_backend_alloc_ctx_tensors(ctx_gpu_.get(), gpu));
    buf_cpu_.reset(ggml_backend_alloc_ctx_tensors(ctx_cpu_.get(), cpu));
    int salt = 1;
    for (ggml_context* c : {ctx_cpu_.get(), ctx_gpu_.get()})
      for (ggml_tensor* t = ggml_get_first_tensor(c); t; t = ggml_get_next_tensor(c, t), ++salt) {
        std::vector<float> w(ggml_nelements(t));
        for (size_t i = 0; i < w.size(); ++i) w[i] = 0.3f * std::cos(0.9f * static_cast<float>(i) + static_cast<float>(salt));
        ggml_backend_tensor_set(t, w.data(), 0, ggml_nbytes(t));
      }
    ggml_backend_t backends[2] = {gpu, cpu};
    sched_.reset(ggml_backend_sched_new(backends, nullptr, 2, 2048, false, true));
  }

  KvCache& kv() { return kv_; }

  int decode(int seq, int32_t token, int32_t pos) {
    const int cell = kv_.find_slot();
    if (cell < 0) throw std::runtime_error("kv cache full");
    kv_.occupy(cell, seq, pos);
    ggml_init_params p = {ggml_tensor_overhead() * 256 + ggml_graph_overhead_custom(2048, false), nullptr, true};
    ggml_context_ptr ctx(ggml_init(p));
    ggml_context* c = ctx.get();
    ggml_cgraph* gf = ggml_new_graph_custom(c, 2048, false);
    ggml_tensor* tok = ggml_new_tensor_1d(c, GGML_TYPE_I32, 1);
    ggml_tensor* idx = ggml_new_tensor_1d(c, GGML_TYPE_I64, 1);
    ggml_tensor* kq_mask = ggml_new_tensor_2d(c, GGML_TYPE_F32, kCells, 1);
    for (ggml_tensor* t : {tok, idx, kq_mask}) ggml_set_input(t);
    ggml_tensor* x = ggml_get_rows(c, tok_embd_, tok);
    for (int il = 0; il < kLayers; ++il) {
      auto w = [&](const char* n) { return weights_.at("blk." + std::to_string(il) + "." + n); };
      ggml_tensor* q = ggml_mul_mat(c, w("wq"), x);
      ggml_build_forward_expand(gf, ggml_set_rows(c, kv_.k(il), ggml_mul_mat(c, w("wk"), x), idx));
      ggml_build_forward_expand(gf, ggml_set_rows(c, kv_.v(il), ggml_mul_mat(c, w("wv"), x), idx));
      ggml_tensor* kq = ggml_soft_max_ext(c, ggml_mul_mat(c, kv_.k(il), q), kq_mask, 1.0f / std::sqrt(static_cast<float>(kEmbd)), 0.0f);
      ggml_tensor* kqv = ggml_mul_mat(c, ggml_cont(c, ggml_transpose(c, kv_.v(il))), kq);
      x = ggml_add(c, x, ggml_mul_mat(c, w("wo"), kqv));
    }
    ggml_tensor* logits = ggml_mul_mat(c, output_, ggml_rms_norm(c, x, 1e-5f));
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);

    ggml_backend_sched_reset(sched_.get());
    if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) throw std::runtime_error("decode: alloc");
    const int64_t cell64 = cell;
    const std::vector<float> mask = kv_.mask(seq, {pos});
    ggml_backend_tensor_set(tok, &token, 0, sizeof token);
    ggml_backend_tensor_set(idx, &cell64, 0, sizeof cell64);
    ggml_backend_tensor_set(kq_mask, mask.data(), 0, ggml_nbytes(kq_mask));
    ggml_backend_sched_graph_compute(sched_.get(), gf);
    std::vector<float> out(kVocab);
    ggml_backend_tensor_get(logits, out.data(), 0, sizeof(float) * out.size());
    int best = 0;
    for (int i = 1; i < kVocab; ++i)
      if (out[i] > out[best]) best = i;
    return best;
  }

 private:
  KvCache kv_;
  ggml_context_ptr ctx_gpu_, ctx_cpu_;
  ggml_backend_buffer_ptr buf_gpu_, buf_cpu_;
  ggml_tensor* tok_embd_ = nullptr;
  ggml_tensor* output_ = nullptr;
  std::map<std::string, ggml_tensor*> weights_;
  ggml_backend_sched_ptr sched_;
};

}  // namespace

int main() {
  ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
  ggml_backend_ptr cpu(ggml_backend_cpu_init());
  if (!gpu || !cpu) return 1;
  auto model = std::make_unique<Model>(gpu.get(), cpu.get());

  std::map<int, std::vector<int32_t>> seqs = {{0, {3, 1, 4}}, {1, {2, 7}}, {2, {9, 9, 5, 6}}};
  std::map<int, int32_t> next;
  for (auto& [id, toks] : seqs)
    for (size_t i = 0; i < toks.size(); ++i) next[id] = model->decode(id, toks[i], static_cast<int32_t>(i));
  std::printf("prefill: %d cells used\n", model->kv().used());

  model->kv().seq_rm(1);                 // sequence 1 is done: holes at its cells
  model->kv().seq_fork(2, 3);            // a second branch of sequence 2
  seqs[3] = seqs[2];
  next[3] = (next[2] + 1) % kVocab;
  const std::vector<float> before = model->kv().read_cell(0, 5);  // sequence 2's first cell
  const int moved = model->kv().defrag();
  const std::vector<float> after = model->kv().read_cell(0, 4);   // ... after the move (cell 3 holds the fork)
  std::printf("defrag: %d cells moved, %d used, k[0] %.4f -> %.4f\n", moved, model->kv().used(), static_cast<double>(before[0]), static_cast<double>(after[0]));
  if (before != after) return 1;

  for (int step = 0; step < 3; ++step) {
    for (int id : {0, 2, 3}) {
      std::vector<int32_t>& toks = seqs[id];
      toks.push_back(next[id]);
      next[id] = model->decode(id, toks.back(), static_cast<int32_t>(toks.size() - 1));
    }
  }
  for (int id : {0, 2, 3}) {
    std::printf("seq %d:", id);
    for (int32_t t : seqs[id]) std::printf(" %d", t);
    std::printf(" -> %d\n", next[id]);
  }
  return 0;
}
