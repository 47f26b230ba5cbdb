// provenance: blind round g10
// run-args: --restore
// A llama-server style slot: a KV cache whose GPU buffer is allocated lazily on the first
// decode (so an idle slot costs no device memory), a decode step run through
// ggml_backend_sched, and session save / restore of the cache (llama_state_seq_* style).
// `--restore` starts the slot from a saved session instead of an empty cache.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int64_t kEmbd = 8;
constexpr int64_t kCtx = 16;
constexpr int kLayers = 2;
constexpr int64_t kVocab = 16;

struct SessionHeader {
  uint32_t magic = 0x67676d6c;
  int32_t n_used = 0;
  int32_t n_layer = 0;
};

class KVCache {
 public:
  KVCache(ggml_backend_t backend, int n_layer) : backend_(backend) {
    ggml_init_params p = {ggml_tensor_overhead() * 2 * n_layer, nullptr, true};
    ctx_.reset(ggml_init(p));
    for (int il = 0; il < n_layer; ++il) {
      k_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCtx));
      v_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCtx));
      ggml_format_name(k_.back(), "cache_k_l%d", il);
      ggml_format_name(v_.back(), "cache_v_l%d", il);
    }
  }

  void ensure_allocated() {
    if (buf_) return;
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
    if (!buf_) throw std::runtime_error("kv cache: out of device memory");
    ggml_backend_buffer_clear(buf_.get(), 0);
  }

  std::vector<uint8_t> save() const {
    SessionHeader h;
    h.n_used = n_used_;
    h.n_layer = static_cast<int32_t>(k_.size());
    std::vector<uint8_t> blob(sizeof h);
    std::memcpy(blob.data(), &h, sizeof h);
    for (size_t il = 0; il < k_.size(); ++il) {
      for (ggml_tensor* t : {k_[il], v_[il]}) {
        const size_t n = static_cast<size_t>(n_used_) * t->nb[1];
        const size_t off = blob.size();
        blob.resize(off + n);
        ggml_backend_tensor_get(t, blob.data() + off, 0, n);
      }
    }
    return blob;
  }

  void restore(const std::vector<uint8_t>& blob) {
    SessionHeader h;
    std::memcpy(&h, blob.data(), sizeof h);
    if (h.magic != SessionHeader().magic || h.n_layer != static_cast<int32_t>(k_.size())) throw std::runtime_error("bad session");
    size_t off = sizeof h;
    for (size_t il = 0; il < k_.size(); ++il) {
      for (ggml_tensor* t : {k_[il], v_[il]}) {
        const size_t n = static_cast<size_t>(h.n_used) * t->nb[1];
        ggml_backend_tensor_set(t, blob.data() + off, 0, n); // expect-warning: ggml-buffer-not-set
        off += n;
      }
    }
    n_used_ = h.n_used;
  }

  ggml_tensor* k(int il) const { return k_[il]; }
  ggml_tensor* v(int il) const { return v_[il]; }
  int n_used() const { return n_used_; }
  void advance() { ++n_used_; }

 private:
  ggml_backend_t backend_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  std::vector<ggml_tensor*> k_, v_;
  int n_used_ = 0;
};

class Slot {
 public:
  Slot(ggml_backend_t gpu, ggml_backend_t cpu) : kv_(gpu, kLayers) {
    ggml_init_params p = {ggml_tensor_overhead() * (1 + 3 * kLayers), nullptr, true};
    wctx_.reset(ggml_init(p));
    tok_embd_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kEmbd, kVocab);
    for (int il = 0; il < kLayers; ++il) {
      wk_.push_back(ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd));
      wv_.push_back(ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd));
      wo_.push_back(ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd));
    }
    wbuf_.reset(ggml_backend_alloc_ctx_tensors(wctx_.get(), gpu));
    int salt = 3;
    for (ggml_tensor* t = ggml_get_first_tensor(wctx_.get()); t; t = ggml_get_next_tensor(wctx_.get(), t), ++salt) {
      std::vector<float> w(ggml_nelements(t));
      for (size_t i = 0; i < w.size(); ++i) w[i] = 0.25f * std::sin(0.5f * i * salt);
      ggml_backend_tensor_set(t, w.data(), 0, ggml_nbytes(t));
    }
    ggml_backend_t backends[2] = {gpu, cpu};
    sched_.reset(ggml_backend_sched_new(backends, nullptr, 2, 1024, false, true));
  }

  void load_session(const std::vector<uint8_t>& blob) { kv_.restore(blob); }
  std::vector<uint8_t> save_session() const { return kv_.save(); }
  int n_past() const { return kv_.n_used(); }

  int decode(int32_t token) {
    kv_.ensure_allocated();
    ggml_init_params p = {ggml_tensor_overhead() * 128 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(p));
    ggml_context* c = ctx.get();
    ggml_cgraph* gf = ggml_new_graph_custom(c, 1024, false);
    ggml_tensor* tok = ggml_new_tensor_1d(c, GGML_TYPE_I32, 1);
    ggml_tensor* cell = ggml_new_tensor_1d(c, GGML_TYPE_I64, 1);
    ggml_set_input(tok);
    ggml_set_input(cell);
    const int n_kv = kv_.n_used() + 1;
    ggml_tensor* x = ggml_get_rows(c, tok_embd_, tok);
    for (int il = 0; il < kLayers; ++il) {
      ggml_tensor* k = ggml_mul_mat(c, wk_[il], x);
      ggml_tensor* v = ggml_mul_mat(c, wv_[il], x);
      ggml_build_forward_expand(gf, ggml_set_rows(c, kv_.k(il), k, cell));
      ggml_build_forward_expand(gf, ggml_set_rows(c, kv_.v(il), v, cell));
      ggml_tensor* keys = ggml_view_2d(c, kv_.k(il), kEmbd, n_kv, kv_.k(il)->nb[1], 0);
      ggml_tensor* vals = ggml_view_2d(c, kv_.v(il), kEmbd, n_kv, kv_.v(il)->nb[1], 0);
      ggml_tensor* att = ggml_soft_max_ext(c, ggml_mul_mat(c, keys, x), nullptr, 1.0f / std::sqrt(float(kEmbd)), 0.0f);
      ggml_tensor* mix = ggml_mul_mat(c, ggml_cont(c, ggml_transpose(c, vals)), att);
      x = ggml_add(c, x, ggml_mul_mat(c, wo_[il], mix));
    }
    ggml_tensor* logits = ggml_mul_mat(c, tok_embd_, x);
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);

    ggml_backend_sched_reset(sched_.get());
    if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) throw std::runtime_error("alloc");
    const int64_t idx = kv_.n_used();
    ggml_backend_tensor_set(tok, &token, 0, sizeof token);
    ggml_backend_tensor_set(cell, &idx, 0, sizeof idx);
    ggml_backend_sched_graph_compute(sched_.get(), gf);
    std::vector<float> out(kVocab);
    ggml_backend_tensor_get(logits, out.data(), 0, out.size() * sizeof(float));
    kv_.advance();
    int best = 0;
    for (int i = 1; i < kVocab; ++i)
      if (out[i] > out[best]) best = i;
    return best;
  }

 private:
  KVCache kv_;
  ggml_context_ptr wctx_;
  ggml_backend_buffer_ptr wbuf_;
  ggml_tensor* tok_embd_ = nullptr;
  std::vector<ggml_tensor*> wk_, wv_, wo_;
  ggml_backend_sched_ptr sched_;
};

// What a previous run of the server left on disk: a header and three cells per tensor.
std::vector<uint8_t> saved_session() {
  SessionHeader h;
  h.n_used = 3;
  h.n_layer = kLayers;
  std::vector<uint8_t> blob(sizeof h);
  std::memcpy(blob.data(), &h, sizeof h);
  std::vector<float> cells(h.n_used * kEmbd);
  for (int t = 0; t < 2 * kLayers; ++t) {
    for (size_t i = 0; i < cells.size(); ++i) cells[i] = 0.01f * float(i + 17 * t);
    const uint8_t* raw = reinterpret_cast<const uint8_t*>(cells.data());
    blob.insert(blob.end(), raw, raw + cells.size() * sizeof(float));
  }
  return blob;
}

}  // namespace

int main(int argc, char** argv) {
  bool restore = false;
  for (int i = 1; i < argc; ++i) restore = restore || std::string(argv[i]) == "--restore";

  ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
  ggml_backend_ptr cpu(ggml_backend_cpu_init());
  auto slot = std::make_unique<Slot>(gpu.get(), cpu.get());

  std::vector<int32_t> prompt = {2, 7, 1, 8};
  if (restore) {
    slot->load_session(saved_session());
    std::printf("restored %d cells\n", slot->n_past());
    prompt.erase(prompt.begin(), prompt.begin() + slot->n_past());
  }
  int next = 0;
  for (int32_t t : prompt) next = slot->decode(t);
  for (int i = 0; i < 4; ++i) {
    next = slot->decode(next);
    std::printf("n_past %d: %d\n", slot->n_past(), next);
  }
  const std::vector<uint8_t> blob = slot->save_session();
  std::printf("saved session: %zu bytes\n", blob.size());
  return 0;
}
