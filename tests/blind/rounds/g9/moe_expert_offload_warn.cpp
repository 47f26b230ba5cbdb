// provenance: blind round g9
// run-env: MOE_OFFLOAD=split
// A mixture-of-experts FFN stack (router, softmax gating, SwiGLU experts) whose experts are
// kept in "banks", one weight context and buffer per device. MOE_OFFLOAD=split moves the
// upper half of each layer's experts to CUDA1 to save memory on CUDA0; the forward graph
// is still allocated and computed on CUDA0 as a whole.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

struct MoeConfig {
  int n_embd = 32;
  int n_ff = 48;
  int n_expert = 4;
  int n_layer = 2;
  bool split_experts = false;

  static MoeConfig from_env() {
    MoeConfig c;
    const char *s = std::getenv("MOE_OFFLOAD");
    if (s && std::strcmp(s, "split") == 0) c.split_experts = true;
    return c;
  }
};

struct Expert {
  ggml_tensor *gate = nullptr, *up = nullptr, *down = nullptr;
};

// the experts of all layers that live on one device
class ExpertBank {
 public:
  ExpertBank(ggml_backend_t backend, int max_tensors) : backend_(backend) {
    ggml_init_params p = {ggml_tensor_overhead() * static_cast<size_t>(max_tensors), nullptr, true};
    ctx_.reset(ggml_init(p));
  }

  Expert *add(const MoeConfig &c, int il, int e) {
    Expert x;
    x.gate = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F16, c.n_embd, c.n_ff);
    x.up = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F16, c.n_embd, c.n_ff);
    x.down = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F16, c.n_ff, c.n_embd);
    ggml_format_name(x.gate, "blk.%d.ffn_gate.%d", il, e);
    ggml_format_name(x.up, "blk.%d.ffn_up.%d", il, e);
    ggml_format_name(x.down, "blk.%d.ffn_down.%d", il, e);
    experts_.push_back(std::make_unique<Expert>(x));
    return experts_.back().get();
  }

  bool allocate() {
    if (experts_.empty()) return true;
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
    return buf_ != nullptr;
  }

  template <typename F> void for_each_tensor(F &&f) {
    for (ggml_tensor *t = ggml_get_first_tensor(ctx_.get()); t; t = ggml_get_next_tensor(ctx_.get(), t)) f(t);
  }

 private:
  ggml_backend_t backend_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  std::vector<std::unique_ptr<Expert>> experts_;
};

struct MoeLayer {
  ggml_tensor *norm = nullptr, *router = nullptr;
  std::vector<Expert *> experts;
};

class MoeModel {
 public:
  MoeModel(const MoeConfig &c, ggml_backend_t main, ggml_backend_t second) : cfg_(c), main_(main) {
    ggml_init_params p = {ggml_tensor_overhead() * 16, nullptr, true};
    ctx_dense_.reset(ggml_init(p));
    const int per_bank = 3 * c.n_expert * c.n_layer;
    banks_.push_back(std::make_unique<ExpertBank>(main, per_bank));
    banks_.push_back(std::make_unique<ExpertBank>(second, per_bank));
    for (int il = 0; il < c.n_layer; il++) {
      MoeLayer l;
      l.norm = ggml_new_tensor_1d(ctx_dense_.get(), GGML_TYPE_F32, c.n_embd);
      l.router = ggml_new_tensor_2d(ctx_dense_.get(), GGML_TYPE_F32, c.n_embd, c.n_expert);
      for (int e = 0; e < c.n_expert; e++) l.experts.push_back(bank_for(e).add(c, il, e));
      layers_.push_back(l);
    }
    buf_dense_.reset(ggml_backend_alloc_ctx_tensors(ctx_dense_.get(), main));
    for (auto &b : banks_) b->allocate();
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(main_)));
  }

  void load(uint32_t seed) {
    auto fill = [&seed](ggml_tensor *t) {
      std::vector<float> v(ggml_nelements(t));
      for (float &x : v) {
        seed = seed * 1103515245u + 12345u;
        x = (static_cast<float>((seed >> 8) & 0xffff) / 65536.0f - 0.5f) * 0.3f;
      }
      if (t->type == GGML_TYPE_F16) {
        std::vector<ggml_fp16_t> h(v.size());
        ggml_fp32_to_fp16_row(v.data(), h.data(), static_cast<int64_t>(v.size()));
        ggml_backend_tensor_set(t, h.data(), 0, ggml_nbytes(t));
      } else {
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
      }
    };
    for (ggml_tensor *t = ggml_get_first_tensor(ctx_dense_.get()); t; t = ggml_get_next_tensor(ctx_dense_.get(), t)) fill(t);
    for (auto &b : banks_) b->for_each_tensor(fill);
  }

  std::vector<float> forward(const std::vector<float> &x_host, int n_tokens) {
    ggml_init_params p = {ggml_tensor_overhead() * 2048 + ggml_graph_overhead_custom(2048, false), nullptr, true};
    ggml_context_ptr ctx(ggml_init(p));
    ggml_cgraph *gf = ggml_new_graph_custom(ctx.get(), 2048, false);
    ggml_tensor *x = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, cfg_.n_embd, n_tokens);
    ggml_set_input(x);
    ggml_tensor *cur = x;
    for (const MoeLayer &l : layers_) cur = ggml_add(ctx.get(), cur, moe_ffn(ctx.get(), l, cur, n_tokens));
    ggml_set_output(cur);
    ggml_build_forward_expand(gf, cur);

    if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) return {};
    ggml_backend_tensor_set(x, x_host.data(), 0, ggml_nbytes(x));
    ggml_backend_graph_compute(main_, gf); // expect-warning: ggml-backend-mismatch
    std::vector<float> out(ggml_nelements(cur));
    ggml_backend_tensor_get(cur, out.data(), 0, ggml_nbytes(cur));
    return out;
  }

 private:
  ExpertBank &bank_for(int e) {
    const bool upper = e >= cfg_.n_expert / 2;
    return *banks_[cfg_.split_experts && upper ? 1 : 0];
  }

  ggml_tensor *moe_ffn(ggml_context *ctx, const MoeLayer &l, ggml_tensor *cur, int n_tokens) const {
    ggml_tensor *h = ggml_mul(ctx, ggml_rms_norm(ctx, cur, 1e-6f), l.norm);
    ggml_tensor *probs = ggml_soft_max(ctx, ggml_mul_mat(ctx, l.router, h));  // [n_expert, n_tokens]
    ggml_tensor *acc = nullptr;
    for (size_t e = 0; e < l.experts.size(); e++) {
      const Expert *ex = l.experts[e];
      ggml_tensor *g = ggml_silu(ctx, ggml_mul_mat(ctx, ex->gate, h));
      ggml_tensor *y = ggml_mul_mat(ctx, ex->down, ggml_mul(ctx, g, ggml_mul_mat(ctx, ex->up, h)));
      ggml_tensor *w = ggml_cont(ctx, ggml_view_2d(ctx, probs, 1, n_tokens, probs->nb[1], e * sizeof(float)));
      y = ggml_mul(ctx, y, w);
      acc = acc ? ggml_add(ctx, acc, y) : y;
    }
    return acc;
  }

  MoeConfig cfg_;
  ggml_backend_t main_;
  ggml_context_ptr ctx_dense_;
  ggml_backend_buffer_ptr buf_dense_;
  std::vector<std::unique_ptr<ExpertBank>> banks_;
  std::vector<MoeLayer> layers_;
  ggml_gallocr_ptr galloc_;
};

}  // namespace

int main() {
  const MoeConfig cfg = MoeConfig::from_env();
  ggml_backend_ptr gpu0(ggml_backend_cuda_init(0));
  ggml_backend_ptr gpu1(ggml_backend_cuda_init(1));
  if (!gpu0 || !gpu1) return 1;

  MoeModel model(cfg, gpu0.get(), gpu1.get());
  model.load(2024);

  const int n_tokens = 5;
  std::vector<float> x(static_cast<size_t>(cfg.n_embd) * n_tokens);
  for (size_t i = 0; i < x.size(); i++) x[i] = std::cos(0.37f * static_cast<float>(i));
  for (int pass = 0; pass < 2; pass++) {
    std::vector<float> y = model.forward(x, n_tokens);
    if (y.empty()) return 1;
    double norm = 0;
    for (float v : y) norm += static_cast<double>(v) * v;
    std::printf("pass %d (%s): |y| = %.5f\n", pass, cfg.split_experts ? "split" : "single", std::sqrt(norm));
    x = y;
  }
  return 0;
}
