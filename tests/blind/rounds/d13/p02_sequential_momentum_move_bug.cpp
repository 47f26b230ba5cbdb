// Sequential model built from virtual modules (Dense, Tanh, Residual) held in a
// vector<unique_ptr<Module>>, trained with SGD + momentum.  The first epochs run on the host
// (autodiff<cpu>) as a smoke test; then Trainer::move_to sends the model to the accelerator
// given by --accel and training continues there.
//
//   usage: p02 [--accel 0|1] [--epochs N] [--host-epochs K] [--loss mse|huber]
// run-args: --accel 1 --epochs 5 --host-epochs 2 --loss huber
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

struct Del {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Del>;

static Tensor leaf(dt_device ad, dt_tensor *plain) {
  Tensor p(plain);
  return Tensor(dt_require_grad(dt_from_inner(ad, p.get())));
}

class Module {
 public:
  virtual ~Module() = default;
  virtual Tensor forward(const dt_tensor *x) = 0;
  virtual void parameters(std::vector<Tensor *> &out) { (void)out; }
  virtual const char *kind() const = 0;
};

class Dense : public Module {
 public:
  Dense(dt_device ad, int64_t in, int64_t out, uint64_t seed) {
    dt_device plain = dt_inner_device(ad);
    const int64_t ws[2] = {in, out}, bs[1] = {out};
    Tensor r(dt_randn(plain, seed, 2, ws));
    w_ = leaf(ad, dt_mul_scalar(r.get(), 0.7f / std::sqrt(float(in))));
    b_ = leaf(ad, dt_zeros(plain, DT_FLOAT, 1, bs));
  }
  Tensor forward(const dt_tensor *x) override {
    Tensor z(dt_matmul(x, w_.get()));
    return Tensor(dt_add(z.get(), b_.get()));
  }
  void parameters(std::vector<Tensor *> &out) override {
    out.push_back(&w_);
    out.push_back(&b_);
  }
  const char *kind() const override { return "Dense"; }

 private:
  Tensor w_, b_;
};

class Tanh : public Module {
 public:
  Tensor forward(const dt_tensor *x) override { return Tensor(dt_tanh(x)); }
  const char *kind() const override { return "Tanh"; }
};

class Residual : public Module {
 public:
  explicit Residual(std::unique_ptr<Module> inner) : inner_(std::move(inner)) {}
  Tensor forward(const dt_tensor *x) override {
    Tensor y = inner_->forward(x);
    return Tensor(dt_add(x, y.get()));
  }
  void parameters(std::vector<Tensor *> &out) override { inner_->parameters(out); }
  const char *kind() const override { return "Residual"; }

 private:
  std::unique_ptr<Module> inner_;
};

class Sequential {
 public:
  explicit Sequential(dt_device plain) : ad_(dt_autodiff(plain)) {}
  template <typename M, typename... Args>
  void add(Args &&...args) {
    mods_.push_back(std::make_unique<M>(std::forward<Args>(args)...));
  }
  void add_residual_dense(int64_t width, uint64_t seed) {
    mods_.push_back(std::make_unique<Residual>(std::make_unique<Dense>(ad_, width, width, seed)));
  }
  Tensor forward(const dt_tensor *x) {
    Tensor h(dt_detach(x));
    for (auto &m : mods_) h = m->forward(h.get());
    return h;
  }
  std::vector<Tensor *> parameters() {
    std::vector<Tensor *> ps;
    for (auto &m : mods_) m->parameters(ps);
    return ps;
  }
  void to(dt_device plain) {
    dt_device ad = dt_autodiff(plain);
    for (Tensor *p : parameters()) {
      Tensor in(dt_inner(p->get()));
      *p = leaf(ad, dt_to_device(in.get(), plain));
    }
    ad_ = ad;
  }
  dt_device device() const { return ad_; }
  size_t size() const { return mods_.size(); }

 private:
  dt_device ad_;
  std::vector<std::unique_ptr<Module>> mods_;
};

class MomentumSgd {
 public:
  MomentumSgd(float lr, float mu) : lr_(lr), mu_(mu) {}
  void step(Sequential &model) {
    std::vector<Tensor *> ps = model.parameters();
    if (vel_.size() != ps.size()) vel_.resize(ps.size());
    for (size_t i = 0; i < ps.size(); ++i) {
      Tensor g(dt_grad(ps[i]->get()));
      if (!g) continue;
      if (!vel_[i]) {
        vel_[i] = Tensor(dt_mul_scalar(g.get(), 1.0f));
      } else {
        Tensor decayed(dt_mul_scalar(vel_[i].get(), mu_));
        vel_[i] = Tensor(dt_add(decayed.get(), g.get())); // expect-error: backend-mismatch
      }
      Tensor st(dt_mul_scalar(vel_[i].get(), lr_));
      Tensor in(dt_inner(ps[i]->get()));
      *ps[i] = leaf(model.device(), dt_sub(in.get(), st.get()));
    }
  }

 private:
  float lr_, mu_;
  std::vector<Tensor> vel_;
};

using LossFn = std::function<Tensor(const dt_tensor *, const dt_tensor *)>;

class Trainer {
 public:
  Trainer(Sequential &m, MomentumSgd &o, LossFn loss) : model_(m), opt_(o), loss_(std::move(loss)) {}

  void move_to(dt_device plain) { model_.to(plain); }

  float epoch(int index, int steps) {
    float total = 0.0f;
    for (int s = 0; s < steps; ++s) {
      std::vector<float> x(kRows * kWidth), y(kRows * kWidth);
      for (size_t k = 0; k < x.size(); ++k) {
        x[k] = std::cos(0.05f * float(k + size_t(index * steps + s) * 13));
        y[k] = 0.3f * x[k] * x[k] - 0.1f;
      }
      const int64_t sh[2] = {kRows, kWidth};
      Tensor xt(dt_from_floats(model_.device(), x.data(), 2, sh));
      Tensor yt(dt_from_floats(model_.device(), y.data(), 2, sh));
      Tensor pred = model_.forward(xt.get());
      Tensor loss = loss_(pred.get(), yt.get());
      Tensor li(dt_inner(loss.get()));
      float lv = 0.0f;
      dt_read_floats(li.get(), &lv, 1);
      total += lv;
      dt_backward(loss.get());
      opt_.step(model_);
    }
    return total / float(steps);
  }

  static constexpr int64_t kRows = 6, kWidth = 8;

 private:
  Sequential &model_;
  MomentumSgd &opt_;
  LossFn loss_;
};

int main(int argc, char **argv) {
  int accel = 0, epochs = 4, host_epochs = 1;
  std::string loss_name = "mse";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--accel")) accel = std::atoi(argv[i + 1]) == 1 ? 1 : 0;
    else if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--host-epochs")) host_epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--loss")) loss_name = argv[i + 1];
  }
  if (host_epochs < 1) host_epochs = 1;  // the host smoke test always runs

  Sequential model(dt_cpu());
  const int64_t W = Trainer::kWidth;
  model.add<Dense>(model.device(), W, W, 3u);
  model.add<Tanh>();
  model.add_residual_dense(W, 4u);
  model.add<Tanh>();
  model.add<Dense>(model.device(), W, W, 5u);

  LossFn mse = [](const dt_tensor *p, const dt_tensor *y) { return Tensor(dt_mse_loss(p, y)); };
  LossFn huber_ish = [](const dt_tensor *p, const dt_tensor *y) {
    Tensor d(dt_sub(p, y));
    Tensor sq(dt_mul(d.get(), d.get()));
    Tensor one(dt_add_scalar(sq.get(), 1.0f));
    Tensor lg(dt_log(one.get()));
    return Tensor(dt_mean(lg.get()));
  };
  MomentumSgd opt(0.05f, 0.9f);
  Trainer trainer(model, opt, loss_name == "huber" ? huber_ish : mse);

  std::printf("%zu modules, %zu parameter tensors\n", model.size(), model.parameters().size());
  int e = 0;
  for (; e < host_epochs; ++e) std::printf("host epoch %d loss %.5f\n", e, trainer.epoch(e, 4));

  trainer.move_to(dt_sim(accel));
  std::printf("moved model to sim:%d\n", accel);
  for (; e < epochs; ++e) std::printf("epoch %d loss %.5f\n", e, trainer.epoch(e, 4));
  return 0;
}
