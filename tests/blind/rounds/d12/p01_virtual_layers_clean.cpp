// provenance: blind round d12
// run-args: sim1 20
/* A Sequential of heterogeneous layers behind a virtual interface, owning RAII tensor
 * handles; trained with Adam on autodiff<device from argv[1]>. The optimizer keeps its
 * moments in an unordered_map keyed by parameter slot. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *t) : t_(t) {
    if (!t_) throw std::runtime_error(std::string("dt: ") + dt_last_error());
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;
  Tensor(Tensor &&o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  Tensor &operator=(Tensor &&o) noexcept {
    if (this != &o) {
      dt_free(t_);
      t_ = o.t_;
      o.t_ = nullptr;
    }
    return *this;
  }
  ~Tensor() { dt_free(t_); }
  dt_tensor *get() const { return t_; }
  explicit operator bool() const { return t_ != nullptr; }

 private:
  dt_tensor *t_ = nullptr;
};

class Layer {
 public:
  virtual ~Layer() = default;
  virtual Tensor forward(const Tensor &x) = 0;
  virtual std::vector<Tensor *> params() { return {}; }
  virtual const char *name() const = 0;
};

class Linear : public Layer {
 public:
  Linear(dt_device ad, int64_t in, int64_t out, uint64_t seed) {
    int64_t ws[2] = {in, out}, bs[1] = {out};
    dt_device inner = dt_inner_device(ad);
    Tensor r(dt_randn(inner, seed, 2, ws));
    Tensor rs(dt_mul_scalar(r.get(), 1.0f / std::sqrt((float)in)));
    w_ = Tensor(dt_require_grad(dt_from_inner(ad, rs.get())));
    b_ = Tensor(dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, bs)));
  }
  Tensor forward(const Tensor &x) override {
    Tensor h(dt_matmul(x.get(), w_.get()));
    return Tensor(dt_add(h.get(), b_.get()));
  }
  std::vector<Tensor *> params() override { return {&w_, &b_}; }
  const char *name() const override { return "linear"; }

 private:
  Tensor w_, b_;
};

class Activation : public Layer {
 public:
  using Fn = dt_tensor *(*)(const dt_tensor *);
  Activation(Fn fn, const char *n) : fn_(fn), n_(n) {}
  Tensor forward(const Tensor &x) override { return Tensor(fn_(x.get())); }
  const char *name() const override { return n_; }

 private:
  Fn fn_;
  const char *n_;
};

class Sequential {
 public:
  explicit Sequential(dt_device ad) : ad_(ad) {}
  template <typename L, typename... Args>
  Sequential &add(Args &&...args) {
    layers_.push_back(std::make_unique<L>(std::forward<Args>(args)...));
    return *this;
  }
  Tensor forward(const Tensor &x) {
    Tensor cur(dt_mul_scalar(x.get(), 1.0f));
    for (auto &l : layers_) cur = l->forward(cur);
    return cur;
  }
  std::vector<Tensor *> params() {
    std::vector<Tensor *> all;
    for (auto &l : layers_)
      for (Tensor *p : l->params()) all.push_back(p);
    return all;
  }
  dt_device device() const { return ad_; }
  void describe() const {
    for (const auto &l : layers_) std::printf("%s ", l->name());
    std::printf("\n");
  }

 private:
  dt_device ad_;
  std::vector<std::unique_ptr<Layer>> layers_;
};

class Adam {
 public:
  Adam(Sequential &model, float lr) : model_(model), lr_(lr) {}
  void step() {
    ++t_;
    auto ps = model_.params();
    dt_device ad = model_.device();
    for (size_t i = 0; i < ps.size(); i++) {
      Tensor &p = *ps[i];
      dt_tensor *graw = dt_grad(p.get());
      if (!graw) continue;
      Tensor g(graw);
      auto it = state_.find(i);
      if (it == state_.end()) {
        Tensor z1(dt_mul_scalar(g.get(), 0.0f));
        Tensor z2(dt_mul_scalar(g.get(), 0.0f));
        it = state_.emplace(i, std::make_pair(std::move(z1), std::move(z2))).first;
      }
      auto &[m, v] = it->second;
      Tensor m1(dt_mul_scalar(m.get(), b1_));
      Tensor g1(dt_mul_scalar(g.get(), 1.0f - b1_));
      m = Tensor(dt_add(m1.get(), g1.get()));
      Tensor gg(dt_mul(g.get(), g.get()));
      Tensor v1(dt_mul_scalar(v.get(), b2_));
      Tensor gg1(dt_mul_scalar(gg.get(), 1.0f - b2_));
      v = Tensor(dt_add(v1.get(), gg1.get()));
      float c1 = 1.0f - std::pow(b1_, (float)t_), c2 = 1.0f - std::pow(b2_, (float)t_);
      Tensor mh(dt_mul_scalar(m.get(), 1.0f / c1));
      Tensor vh(dt_mul_scalar(v.get(), 1.0f / c2));
      Tensor lv(dt_log(dt_add_scalar(vh.get(), 1e-12f)));
      Tensor sd(dt_exp(dt_mul_scalar(lv.get(), 0.5f)));
      Tensor den(dt_add_scalar(sd.get(), 1e-8f));
      Tensor upd(dt_div(mh.get(), den.get()));
      Tensor st(dt_mul_scalar(upd.get(), lr_));
      Tensor cur(dt_inner(p.get()));
      Tensor nx(dt_sub(cur.get(), st.get()));
      p = Tensor(dt_require_grad(dt_from_inner(ad, nx.get())));
    }
  }

 private:
  Sequential &model_;
  float lr_, b1_ = 0.9f, b2_ = 0.999f;
  int t_ = 0;
  std::unordered_map<size_t, std::pair<Tensor, Tensor>> state_;
};

static dt_device pick(const char *s) {
  if (s && !std::strcmp(s, "sim0")) return dt_sim(0);
  if (s && !std::strcmp(s, "sim1")) return dt_sim(1);
  return dt_cpu();
}

int main(int argc, char **argv) {
  dt_device base = pick(argc > 1 ? argv[1] : nullptr);
  int steps = argc > 2 ? std::atoi(argv[2]) : 15;
  dt_device ad = dt_autodiff(base);
  try {
    Sequential net(ad);
    net.add<Linear>(ad, 4, 16, 1)
        .add<Activation>(&dt_relu, "relu")
        .add<Linear>(ad, 16, 8, 2)
        .add<Activation>(&dt_tanh, "tanh")
        .add<Linear>(ad, 8, 1, 3);
    net.describe();
    Adam opt(net, 0.01f);
    const int64_t xs[2] = {8, 4}, ys[2] = {8, 1};
    std::vector<float> x(32), y(8);
    for (int s = 0; s < steps; s++) {
      for (int i = 0; i < 8; i++) {
        float acc = 0;
        for (int j = 0; j < 4; j++) {
          x[i * 4 + j] = std::sin(0.1f * (float)(s * 32 + i * 4 + j));
          acc += x[i * 4 + j];
        }
        y[i] = 0.25f * acc;
      }
      Tensor xt(dt_from_floats(ad, x.data(), 2, xs));
      Tensor yt(dt_from_floats(ad, y.data(), 2, ys));
      Tensor out = net.forward(xt);
      Tensor loss(dt_mse_loss(out.get(), yt.get()));
      float lv = 0;
      dt_read_floats(loss.get(), &lv, 1);
      if (dt_backward(loss.get()) != 0) throw std::runtime_error(dt_last_error());
      opt.step();
      if (s % 5 == 0) std::printf("step %d loss %.5f\n", s, lv);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "training failed: %s\n", e.what());
    return 1;
  }
  return 0;
}
