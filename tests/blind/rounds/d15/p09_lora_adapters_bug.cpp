// blind round d15 — LoRA fine-tuning of a frozen projection block.
// Frozen base weights are plain tensors on the inner device; each LoraAdapter wraps the plain
// device it is given with dt_autodiff and keeps its A/B factors as autodiff leaves. The model
// builds adapters for q and v from the plain config device — and the "o" adapter, added later
// for the output projection, from the model's own training device, which is already autodiff.
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;

struct Config {
  dt_device base;
  int d_model = 6;
  int rank = 2;
  float alpha = 4.0f;
  int steps = 3;
  float lr = 0.05f;
};

dt_tensor *scaled_randn(dt_device d, uint64_t seed, const Shape &s, float scale) {
  dt_tensor *r = dt_randn(d, seed, static_cast<int>(s.size()), s.data());
  dt_tensor *out = dt_mul_scalar(r, scale);
  dt_free(r);
  return out;
}

class FrozenLinear {
 public:
  FrozenLinear(dt_device inner, int in, int out, uint64_t seed)
      : w_(scaled_randn(inner, seed, {in, out}, 0.4f)) {}
  ~FrozenLinear() { dt_free(w_); }
  FrozenLinear(const FrozenLinear &) = delete;
  FrozenLinear &operator=(const FrozenLinear &) = delete;

  dt_tensor *forward(const dt_tensor *x_plain) const { return dt_matmul(x_plain, w_); }
  const dt_tensor *weight() const { return w_; }

 private:
  dt_tensor *w_;
};

class LoraAdapter {
 public:
  LoraAdapter(dt_device plain, int in, int out, int rank, float alpha, uint64_t seed)
      : dev_(dt_autodiff(plain)), scale_(alpha / static_cast<float>(rank)) { // expect-error: autodiff-nested
    dt_device inner = dt_inner_device(dev_);
    dt_tensor *a = scaled_randn(inner, seed, {in, rank}, 0.3f);
    dt_tensor *b = dt_zeros(inner, DT_FLOAT, 2, Shape{rank, out}.data());
    a_ = dt_require_grad(dt_from_inner(dev_, a));
    b_ = dt_require_grad(dt_from_inner(dev_, b));
    dt_free(a);
    dt_free(b);
  }
  ~LoraAdapter() {
    dt_free(a_);
    dt_free(b_);
  }
  LoraAdapter(const LoraAdapter &) = delete;
  LoraAdapter &operator=(const LoraAdapter &) = delete;

  dt_device device() const { return dev_; }

  // x: autodiff input on dev_. Returns scale * (x A) B.
  dt_tensor *delta(const dt_tensor *x) const {
    dt_tensor *xa = dt_matmul(x, a_);
    dt_tensor *xab = dt_matmul(xa, b_);
    dt_tensor *r = dt_mul_scalar(xab, scale_);
    dt_free(xa);
    dt_free(xab);
    return r;
  }

  void sgd(float lr) {
    for (dt_tensor **slot : {&a_, &b_}) {
      dt_tensor *g = dt_grad(*slot);
      if (!g) continue;
      dt_tensor *w = dt_inner(*slot);
      dt_tensor *d = dt_mul_scalar(g, lr);
      dt_tensor *wn = dt_sub(w, d);
      dt_free(*slot);
      *slot = dt_require_grad(dt_from_inner(dev_, wn));
      dt_free(g);
      dt_free(w);
      dt_free(d);
      dt_free(wn);
    }
  }

  // scale * inner(A) inner(B), plain on the inner device: what merging adds to the base weight.
  dt_tensor *merged_delta() const {
    dt_tensor *a = dt_inner(a_);
    dt_tensor *b = dt_inner(b_);
    dt_tensor *ab = dt_matmul(a, b);
    dt_tensor *r = dt_mul_scalar(ab, scale_);
    dt_free(a);
    dt_free(b);
    dt_free(ab);
    return r;
  }

 private:
  dt_device dev_;
  float scale_;
  dt_tensor *a_ = nullptr;
  dt_tensor *b_ = nullptr;
};

class LoraBlock {
 public:
  explicit LoraBlock(const Config &cfg) : cfg_(cfg), train_(dt_autodiff(cfg.base)) {
    dt_device inner = dt_inner_device(train_);
    uint64_t seed = 500;
    for (const char *name : {"q", "k", "v", "o"})
      base_[name] = std::make_unique<FrozenLinear>(inner, cfg.d_model, cfg.d_model, seed++);
    for (const char *name : {"q", "v"})
      adapters_[name] = std::make_unique<LoraAdapter>(cfg.base, cfg.d_model, cfg.d_model,
                                                       cfg.rank, cfg.alpha, seed++);
  }

  void add_output_adapter() {
    adapters_["o"] = std::make_unique<LoraAdapter>(train_, cfg_.d_model, cfg_.d_model, cfg_.rank,
                                                    cfg_.alpha, 900);
  }

  // One projection: frozen base on the plain input, plus the adapter's delta when there is one.
  dt_tensor *project(const std::string &name, const dt_tensor *x_plain, const dt_tensor *x_ad) const {
    dt_tensor *base = base_.at(name)->forward(x_plain);
    dt_tensor *wrapped = dt_from_inner(train_, base);
    dt_free(base);
    auto it = adapters_.find(name);
    if (it == adapters_.end()) return wrapped;
    dt_tensor *d = it->second->delta(x_ad);
    dt_tensor *y = dt_add(wrapped, d);
    dt_free(wrapped);
    dt_free(d);
    return y;
  }

  dt_tensor *forward(const dt_tensor *x_plain) const {
    dt_tensor *x_ad = dt_from_inner(train_, const_cast<dt_tensor *>(x_plain));
    dt_tensor *q = project("q", x_plain, x_ad);
    dt_tensor *v = project("v", x_plain, x_ad);
    dt_tensor *gate = dt_sigmoid(q);
    dt_tensor *mixed = dt_mul(gate, v);
    dt_tensor *mixed_plain = dt_inner(mixed);
    dt_tensor *out = project("o", mixed_plain, mixed);
    for (dt_tensor *t : {x_ad, q, v, gate, mixed, mixed_plain}) dt_free(t);
    return out;
  }

  void step(float lr) {
    for (auto &kv : adapters_) kv.second->sgd(lr);
  }

  // Exports W + delta for every adapted projection, on the host.
  std::map<std::string, dt_tensor *> export_merged() const {
    std::map<std::string, dt_tensor *> out;
    for (const auto &kv : adapters_) {
      dt_tensor *d = kv.second->merged_delta();
      dt_tensor *w = dt_add(base_.at(kv.first)->weight(), d);
      out[kv.first] = dt_to_device(w, dt_cpu());
      dt_free(d);
      dt_free(w);
    }
    return out;
  }

  dt_device device() const { return train_; }

 private:
  Config cfg_;
  dt_device train_;
  std::map<std::string, std::unique_ptr<FrozenLinear>> base_;
  std::map<std::string, std::unique_ptr<LoraAdapter>> adapters_;
};

dt_tensor *make_input(dt_device inner, int n, int d, int step) {
  std::vector<float> v(static_cast<size_t>(n * d));
  for (size_t i = 0; i < v.size(); i++) v[i] = static_cast<float>((i * 7 + step * 3) % 10) / 10.0f - 0.4f;
  return dt_from_floats(inner, v.data(), 2, Shape{n, d}.data());
}

}  // namespace

int main(int argc, char **argv) {
  Config cfg;
  cfg.base = (argc > 1 && std::strcmp(argv[1], "cpu") == 0) ? dt_cpu() : dt_sim(0);
  LoraBlock block(cfg);
  block.add_output_adapter();
  dt_device inner = dt_inner_device(block.device());
  for (int step = 0; step < cfg.steps; step++) {
    dt_tensor *x = make_input(inner, 3, cfg.d_model, step);
    dt_tensor *target = make_input(inner, 3, cfg.d_model, step + 1);
    dt_tensor *tgt = dt_from_inner(block.device(), target);
    dt_tensor *y = block.forward(x);
    dt_tensor *loss = dt_mse_loss(y, tgt);
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    block.step(cfg.lr);
    std::printf("step %d: loss %.4f\n", step, lv);
    for (dt_tensor *t : {x, target, tgt, y, loss}) dt_free(t);
  }
  auto merged = block.export_merged();
  for (auto &kv : merged) {
    std::printf("merged %s: %lld elements\n", kv.first.c_str(), static_cast<long long>(dt_numel(kv.second)));
    dt_free(kv.second);
  }
  return 0;
}
