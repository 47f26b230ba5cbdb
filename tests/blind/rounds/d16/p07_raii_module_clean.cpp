// provenance: blind round d16
// p07: a small torch-style module system in C++: a move-only RAII Tensor, a Module base
// class with virtual forward/parameters/buffers, a Sequential of unique_ptr<Module>, and
// Module::to() that re-seats every parameter and buffer through pointers collected in a
// vector. The model is built on autodiff<cpu>, moved to autodiff<sim:0> and trained with an
// Adam whose state is created lazily from each gradient; a state dict round-trips the weights.
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

// Shape literal for the C API: Dims{2, 3}.data() lives until the end of the full expression.
struct Dims {
  Dims(std::initializer_list<int64_t> l) : n((int)l.size()) {
    int i = 0;
    for (int64_t x : l) v[i++] = x;
  }
  const int64_t *data() const { return v; }
  int64_t v[DT_MAX_RANK] = {0};
  int n;
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *t) : t_(t) {}
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
  dt_device device() const { return dt_device_of(t_); }
  int64_t numel() const { return dt_numel(t_); }

 private:
  dt_tensor *t_ = nullptr;
};

static Tensor shape_like_zeros(const Tensor &like, dt_device d) {
  int64_t shape[DT_MAX_RANK];
  int r = dt_rank(like.get());
  for (int i = 0; i < r; i++) shape[i] = dt_dim(like.get(), i);
  return Tensor(dt_zeros(d, DT_FLOAT, r, shape));
}

struct Param {
  std::string name;
  Tensor value;
};

class Module {
 public:
  virtual ~Module() = default;
  virtual Tensor forward(const Tensor &x) = 0;
  virtual std::vector<Param *> parameters() { return {}; }
  virtual std::vector<Tensor *> buffers() { return {}; }

  // Moves parameters (as fresh trainable leaves) and buffers to d.
  void to(dt_device d) {
    for (Param *p : parameters()) {
      Tensor moved(dt_to_device(p->value.get(), d));
      p->value = Tensor(dt_require_grad(dt_detach(moved.get())));
    }
    for (auto &b : buffers()) *b = Tensor(dt_to_device(b->get(), d));
  }
};

class Linear : public Module {
 public:
  Linear(dt_device d, int64_t in, int64_t out, uint64_t seed, std::string prefix) {
    Tensor w0(dt_randn(d, seed, 2, Dims{in, out}.data()));
    w_.name = prefix + ".weight";
    w_.value = Tensor(dt_require_grad(dt_mul_scalar(w0.get(), 0.4f)));
    b_.name = prefix + ".bias";
    b_.value = Tensor(dt_require_grad(dt_zeros(d, DT_FLOAT, 1, Dims{out}.data())));
  }
  Tensor forward(const Tensor &x) override {
    Tensor z(dt_matmul(x.get(), w_.value.get()));
    return Tensor(dt_add(z.get(), b_.value.get()));
  }
  std::vector<Param *> parameters() override { return {&w_, &b_}; }

 private:
  Param w_, b_;
};

// Scales its input by a fixed (non-trainable) per-feature gain held in a buffer.
class Gain : public Module {
 public:
  Gain(dt_device d, int64_t width) : gain_(dt_full(d, 0.9f, 1, Dims{width}.data())) {}
  Tensor forward(const Tensor &x) override {
    Tensor g(dt_detach(gain_.get()));
    return Tensor(dt_mul(x.get(), g.get()));
  }
  std::vector<Tensor *> buffers() override { return {&gain_}; }

 private:
  Tensor gain_;
};

class Tanh : public Module {
 public:
  Tensor forward(const Tensor &x) override { return Tensor(dt_tanh(x.get())); }
};

class Sequential : public Module {
 public:
  template <class M, class... A>
  Sequential &add(A &&...args) {
    layers_.push_back(std::make_unique<M>(std::forward<A>(args)...));
    return *this;
  }
  Tensor forward(const Tensor &x) override {
    Tensor h(dt_add_scalar(x.get(), 0.0f));
    for (auto &l : layers_) h = l->forward(h);
    return h;
  }
  std::vector<Param *> parameters() override {
    std::vector<Param *> out;
    for (auto &l : layers_)
      for (Param *p : l->parameters()) out.push_back(p);
    return out;
  }
  std::vector<Tensor *> buffers() override {
    std::vector<Tensor *> out;
    for (auto &l : layers_)
      for (Tensor *b : l->buffers()) out.push_back(b);
    return out;
  }

 private:
  std::vector<std::unique_ptr<Module>> layers_;
};

class Adam {
 public:
  Adam(float lr, float b1 = 0.9f, float b2 = 0.99f) : lr_(lr), b1_(b1), b2_(b2) {}

  void step(Module &m, dt_device ad) {
    ++t_;
    for (Param *p : m.parameters()) {
      Tensor g(dt_grad(p->value.get()));
      if (!g) continue;
      auto &st = state_[p->name];
      if (!st.first) {  // first step: state where the gradient is
        st.first = shape_like_zeros(g, g.device());
        st.second = shape_like_zeros(g, g.device());
      }
      Tensor m1(dt_add(Tensor(dt_mul_scalar(st.first.get(), b1_)).get(),
                       Tensor(dt_mul_scalar(g.get(), 1.0f - b1_)).get()));
      Tensor gg(dt_mul(g.get(), g.get()));
      Tensor v1(dt_add(Tensor(dt_mul_scalar(st.second.get(), b2_)).get(),
                       Tensor(dt_mul_scalar(gg.get(), 1.0f - b2_)).get()));
      float c1 = 1.0f - std::pow(b1_, (float)t_), c2 = 1.0f - std::pow(b2_, (float)t_);
      Tensor vh(dt_mul_scalar(v1.get(), 1.0f / c2));
      Tensor root(dt_exp(Tensor(dt_mul_scalar(Tensor(dt_log(Tensor(dt_add_scalar(vh.get(), 1e-12f)).get())).get(), 0.5f)).get()));
      Tensor den(dt_add_scalar(root.get(), 1e-8f));
      Tensor upd(dt_div(Tensor(dt_mul_scalar(m1.get(), lr_ / c1)).get(), den.get()));
      Tensor inner(dt_inner(p->value.get()));
      Tensor next(dt_sub(inner.get(), upd.get()));
      p->value = Tensor(dt_require_grad(dt_from_inner(ad, next.get())));
      st.first = std::move(m1);
      st.second = std::move(v1);
    }
  }

 private:
  float lr_, b1_, b2_;
  int t_ = 0;
  std::map<std::string, std::pair<Tensor, Tensor>> state_;
};

using StateDict = std::map<std::string, std::vector<float>>;

static StateDict state_dict(Module &m) {
  StateDict sd;
  for (const Param *p : m.parameters()) {
    std::vector<float> buf((size_t)p->value.numel());
    Tensor host(dt_detach(p->value.get()));
    if (dt_read_floats(host.get(), buf.data(), (int64_t)buf.size()) == 0) sd[p->name] = std::move(buf);
  }
  return sd;
}

static void load_state_dict(Module &m, const StateDict &sd, dt_device ad) {
  for (Param *p : m.parameters()) {
    auto it = sd.find(p->name);
    if (it == sd.end()) continue;
    int64_t shape[DT_MAX_RANK];
    int r = dt_rank(p->value.get());
    for (int i = 0; i < r; i++) shape[i] = dt_dim(p->value.get(), i);
    Tensor plain(dt_from_floats(dt_inner_device(ad), it->second.data(), r, shape));
    p->value = Tensor(dt_require_grad(dt_from_inner(ad, plain.get())));
  }
}

static std::pair<Tensor, Tensor> batch(int step, dt_device ad) {
  std::vector<float> x(4 * 3), y(4 * 2);
  for (int r = 0; r < 4; r++) {
    float s = 0;
    for (int c = 0; c < 3; c++) {
      x[r * 3 + c] = (float)((step * 5 + r * 3 + c) % 7) / 7.0f - 0.4f;
      s += x[r * 3 + c];
    }
    y[r * 2] = s;
    y[r * 2 + 1] = -s;
  }
  Tensor xi(dt_from_floats(dt_inner_device(ad), x.data(), 2, Dims{4, 3}.data()));
  Tensor yi(dt_from_floats(dt_inner_device(ad), y.data(), 2, Dims{4, 2}.data()));
  return {Tensor(dt_from_inner(ad, xi.get())), Tensor(dt_from_inner(ad, yi.get()))};
}

int main() {
  const dt_device host = dt_autodiff(dt_cpu());
  const dt_device accel = dt_autodiff(dt_sim(0));

  Sequential net;
  net.add<Linear>(host, 3, 6, 1, "fc1").add<Tanh>().add<Gain>(host, 6).add<Linear>(host, 6, 2, 2, "fc2");
  net.to(accel);

  Adam opt(0.05f);
  float first = 0, last = 0;
  for (int s = 0; s < 6; s++) {
    auto [x, y] = batch(s, accel);
    Tensor pred = net.forward(x);
    Tensor loss(dt_mse_loss(pred.get(), y.get()));
    dt_backward(loss.get());
    opt.step(net, accel);
    float v = 0;
    dt_read_floats(loss.get(), &v, 1);
    if (s == 0) first = v;
    last = v;
  }

  StateDict sd = state_dict(net);
  Sequential copy;
  copy.add<Linear>(accel, 3, 6, 9, "fc1").add<Tanh>().add<Gain>(accel, 6).add<Linear>(accel, 6, 2, 9, "fc2");
  load_state_dict(copy, sd, accel);
  auto [x, y] = batch(100, accel);
  Tensor a = net.forward(x);
  Tensor b = copy.forward(x);
  Tensor diff(dt_mse_loss(a.get(), b.get()));
  float d = -1;
  dt_read_floats(diff.get(), &d, 1);
  std::printf("loss %.4f -> %.4f, reload diff %.6f (%zu tensors)\n", first, last, d, sd.size());
  return 0;
}
