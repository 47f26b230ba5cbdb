// provenance: blind round d11
// A tiny nn.Module-style library: virtual layers in a Sequential container, built on the host
// and then moved to the training device with Module::to(), as PyTorch code does.
// usage: seq_train [cpu|sim0|sim1] [steps]
#include <dt/dt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nn {

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *t) : t_(t) {
    if (!t_) throw std::runtime_error(std::string("dt failure: ") + dt_last_error());
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;
  Tensor(Tensor &&o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  Tensor &operator=(Tensor &&o) noexcept {
    if (this != &o) { dt_free(t_); t_ = o.t_; o.t_ = nullptr; }
    return *this;
  }
  ~Tensor() { dt_free(t_); }
  dt_tensor *get() const { return t_; }
  dt_tensor *release() { dt_tensor *t = t_; t_ = nullptr; return t; }
  explicit operator bool() const { return t_ != nullptr; }

 private:
  dt_tensor *t_ = nullptr;
};

/* re-homes a trainable leaf on another autodiff device: the new tensor is a fresh leaf */
static Tensor rehome_leaf(const Tensor &p, dt_device ad) {
  Tensor in(dt_inner(p.get()));
  Tensor moved(dt_to_device(in.get(), dt_inner_device(ad)));
  return Tensor(dt_require_grad(dt_from_inner(ad, moved.get())));
}

class Module {
 public:
  virtual ~Module() = default;
  virtual Tensor forward(const Tensor &x) = 0;
  virtual void parameters(std::vector<Tensor *> &out) { (void)out; }
  virtual const char *name() const = 0;
  virtual void to(dt_device ad) {
    std::vector<Tensor *> ps;
    parameters(ps);
    for (Tensor *p : ps) *p = rehome_leaf(*p, ad);
  }
};

class Linear : public Module {
 public:
  Linear(dt_device ad, int64_t in, int64_t out, uint64_t seed) {
    int64_t ws[2] = {in, out}, bs[2] = {1, out};
    Tensor r(dt_randn(dt_inner_device(ad), seed, 2, ws));
    Tensor s(dt_mul_scalar(r.get(), 1.0f / (float)in));
    w_ = Tensor(dt_require_grad(dt_from_inner(ad, s.get())));
    b_ = Tensor(dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, bs)));
  }
  Tensor forward(const Tensor &x) override {
    Tensor h(dt_matmul(x.get(), w_.get()));
    return Tensor(dt_add(h.get(), b_.get()));
  }
  void parameters(std::vector<Tensor *> &out) override {
    out.push_back(&w_);
    out.push_back(&b_);
  }
  const char *name() const override { return "Linear"; }

 private:
  Tensor w_, b_;
};

class ReLU : public Module {
 public:
  Tensor forward(const Tensor &x) override { return Tensor(dt_relu(x.get())); }
  const char *name() const override { return "ReLU"; }
};

class Tanh : public Module {
 public:
  Tensor forward(const Tensor &x) override { return Tensor(dt_tanh(x.get())); }
  const char *name() const override { return "Tanh"; }
};

class Sequential : public Module {
 public:
  template <typename M, typename... Args>
  Sequential &add(Args &&...args) {
    layers_.push_back(std::make_unique<M>(std::forward<Args>(args)...));
    return *this;
  }
  Tensor forward(const Tensor &x) override {
    Tensor cur(dt_mul_scalar(x.get(), 1.0f));
    for (auto &l : layers_) cur = l->forward(cur);
    return cur;
  }
  void parameters(std::vector<Tensor *> &out) override {
    for (auto &l : layers_) l->parameters(out);
  }
  void to(dt_device ad) override {
    for (auto &l : layers_) l->to(ad);
    device_ = ad;
  }
  const char *name() const override { return "Sequential"; }
  dt_device device() const { return device_; }
  void set_device(dt_device d) { device_ = d; }
  size_t size() const { return layers_.size(); }

 private:
  std::vector<std::unique_ptr<Module>> layers_;
  dt_device device_{};
};

class SGD {
 public:
  SGD(Sequential &m, float lr) : model_(m), lr_(lr) {}
  void step() {
    std::vector<Tensor *> ps;
    model_.parameters(ps);
    dt_device ad = model_.device();
    for (Tensor *p : ps) {
      dt_tensor *g = dt_grad(p->get());
      if (!g) continue;
      Tensor grad(g);
      Tensor in(dt_inner(p->get()));
      Tensor st(dt_mul_scalar(grad.get(), lr_));
      Tensor nx(dt_sub(in.get(), st.get()));
      *p = Tensor(dt_require_grad(dt_from_inner(ad, nx.get())));
    }
  }

 private:
  Sequential &model_;
  float lr_;
};

}  // namespace nn

static dt_device device_from_arg(const char *s) {
  if (!s) return dt_cpu();
  if (!std::strcmp(s, "sim0")) return dt_sim(0);
  if (!std::strcmp(s, "sim1")) return dt_sim(1);
  return dt_cpu();
}

static float scalar(const nn::Tensor &t) {
  nn::Tensor in(dt_inner(t.get()));
  float v = 0.0f;
  dt_read_floats(in.get(), &v, 1);
  return v;
}

int main(int argc, char **argv) {
  const dt_device target = device_from_arg(argc > 1 ? argv[1] : nullptr);
  const int steps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 10;
  const dt_device build_dev = dt_autodiff(dt_cpu());

  nn::Sequential model;
  model.add<nn::Linear>(build_dev, 3, 8, 1)
      .add<nn::Tanh>()
      .add<nn::Linear>(build_dev, 8, 8, 2)
      .add<nn::ReLU>()
      .add<nn::Linear>(build_dev, 8, 2, 3);
  model.set_device(build_dev);
  model.to(dt_autodiff(target));

  std::vector<float> xs(16 * 3), ys(16 * 2);
  for (int i = 0; i < 16; i++) {
    for (int j = 0; j < 3; j++) xs[i * 3 + j] = (float)((i * 3 + j) % 7) / 7.0f;
    ys[i * 2] = xs[i * 3] - xs[i * 3 + 1];
    ys[i * 2 + 1] = xs[i * 3 + 2] * 0.5f;
  }
  const int64_t xshape[2] = {16, 3}, yshape[2] = {16, 2};
  auto make_batch = [&](dt_device d) {
    return std::make_pair(nn::Tensor(dt_from_floats(d, xs.data(), 2, xshape)),
                          nn::Tensor(dt_from_floats(d, ys.data(), 2, yshape)));
  };

  nn::SGD opt(model, 0.2f);
  float first = 0.0f, last = 0.0f;
  try {
    for (int s = 0; s < steps; s++) {
      auto batch = make_batch(model.device());
      nn::Tensor pred = model.forward(batch.first);
      nn::Tensor loss(dt_mse_loss(pred.get(), batch.second.get()));
      if (dt_backward(loss.get()) != 0) throw std::runtime_error("backward");
      last = scalar(loss);
      if (s == 0) first = last;
      opt.step();
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "training failed: %s\n", e.what());
    return 1;
  }
  char name[32];
  dt_device_name(model.device(), name, sizeof name);
  std::printf("%zu layers on %s: loss %.5f -> %.5f\n", model.size(), name, first, last);
  return 0;
}
