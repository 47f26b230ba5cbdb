// provenance: blind round d16
// p12: an experiment runner driven by std::function: a batch source, a list of metric
// callbacks and an evaluator are lambdas built in main and handed to an Experiment object.
// The training device is decided after the data lambdas were written (sim:0 is given to the
// evaluator, so training moves to sim:1); the batch source captured the device by value.
#include <dt/dt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct Owned {
  dt_tensor *t = nullptr;
  Owned() = default;
  explicit Owned(dt_tensor *p) : t(p) {}
  Owned(Owned &&o) noexcept : t(o.t) { o.t = nullptr; }
  Owned &operator=(Owned &&o) noexcept {
    if (this != &o) {
      dt_free(t);
      t = o.t;
      o.t = nullptr;
    }
    return *this;
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() { dt_free(t); }
};

struct Batch {
  Owned x, y;
};

struct Metrics {
  int step = 0;
  float loss = 0.0f;
  float grad_norm = 0.0f;
};

class Model {
 public:
  explicit Model(dt_device d) : dev_(d) {
    const int64_t s1[2] = {3, 5}, s2[2] = {5, 1}, b1[1] = {5}, b2[1] = {1};
    w1_ = param(dt_randn(d, 3, 2, s1));
    b1_ = param(dt_zeros(d, DT_FLOAT, 1, b1));
    w2_ = param(dt_randn(d, 4, 2, s2));
    b2_ = param(dt_zeros(d, DT_FLOAT, 1, b2));
  }

  dt_device device() const { return dev_; }

  Owned forward(const dt_tensor *x) const {
    Owned z(dt_matmul(x, w1_.t)); // expect-error: device-mismatch
    Owned zb(dt_add(z.t, b1_.t));
    Owned h(dt_sigmoid(zb.t));
    Owned o(dt_matmul(h.t, w2_.t));
    return Owned(dt_add(o.t, b2_.t));
  }

  // Plain SGD; returns the global gradient norm.
  float update(float lr) {
    float sq = 0.0f;
    for (Owned *p : {&w1_, &b1_, &w2_, &b2_}) {
      Owned g(dt_grad(p->t));
      if (!g.t) continue;
      Owned g2(dt_mul(g.t, g.t));
      Owned s(dt_sum(g2.t));
      float v = 0.0f;
      dt_read_floats(s.t, &v, 1);
      sq += v;
      Owned inner(dt_inner(p->t));
      Owned d(dt_mul_scalar(g.t, lr));
      Owned next(dt_sub(inner.t, d.t));
      *p = Owned(dt_require_grad(dt_from_inner(dev_, next.t)));
    }
    return std::sqrt(sq);
  }

  // A plain copy of the weights for evaluation elsewhere.
  std::vector<Owned> export_plain(dt_device d) const {
    std::vector<Owned> out;
    for (const Owned *p : {&w1_, &b1_, &w2_, &b2_}) {
      Owned inner(dt_inner(p->t));
      out.emplace_back(dt_to_device(inner.t, d));
    }
    return out;
  }

 private:
  static Owned param(dt_tensor *init) {
    Owned i(init);
    return Owned(dt_require_grad(dt_mul_scalar(i.t, 0.5f)));
  }

  dt_device dev_;
  Owned w1_, b1_, w2_, b2_;
};

class Experiment {
 public:
  using Source = std::function<Batch(int)>;
  using Callback = std::function<void(const Metrics &)>;
  using Evaluator = std::function<float(const std::vector<Owned> &)>;

  Experiment(std::unique_ptr<Model> m, Source src, Evaluator ev)
      : model_(std::move(m)), source_(std::move(src)), eval_(std::move(ev)) {}

  void on_step(Callback cb) { callbacks_.push_back(std::move(cb)); }

  float run(int steps, float lr, dt_device eval_dev) {
    for (int s = 0; s < steps; s++) {
      Batch b = source_(s);
      Owned pred = model_->forward(b.x.t);
      Owned loss(dt_mse_loss(pred.t, b.y.t));
      dt_backward(loss.t);
      Metrics m;
      m.step = s;
      m.grad_norm = model_->update(lr);
      dt_read_floats(loss.t, &m.loss, 1);
      for (auto &cb : callbacks_) cb(m);
    }
    return eval_(model_->export_plain(eval_dev));
  }

 private:
  std::unique_ptr<Model> model_;
  Source source_;
  Evaluator eval_;
  std::vector<Callback> callbacks_;
};

static void fill_rows(int seed, std::vector<float> &x, std::vector<float> &y, int rows) {
  x.assign((size_t)rows * 3, 0.0f);
  y.assign((size_t)rows, 0.0f);
  for (int r = 0; r < rows; r++) {
    float a = 0.0f;
    for (int c = 0; c < 3; c++) {
      float v = (float)((seed * 11 + r * 7 + c * 3) % 10) / 10.0f;
      x[(size_t)(r * 3 + c)] = v;
      a += (c == 1 ? -v : v);
    }
    y[(size_t)r] = a * 0.5f;
  }
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  dt_device train_dev = dt_autodiff(dt_sim(0));
  const dt_device eval_dev = dt_sim(0);

  std::vector<float> xs, ys;
  auto source = [train_dev, &xs, &ys](int step) {
    fill_rows(step, xs, ys, 4);
    const int64_t sx[2] = {4, 3}, sy[2] = {4, 1};
    dt_device inner = dt_inner_device(train_dev);
    Owned xi(dt_from_floats(inner, xs.data(), 2, sx));
    Owned yi(dt_from_floats(inner, ys.data(), 2, sy));
    Batch b;
    b.x = Owned(dt_from_inner(train_dev, xi.t));
    b.y = Owned(dt_from_inner(train_dev, yi.t));
    return b;
  };

  auto evaluator = [&eval_dev](const std::vector<Owned> &w) {
    std::vector<float> x, y;
    fill_rows(1000, x, y, 6);
    const int64_t sx[2] = {6, 3}, sy[2] = {6, 1};
    Owned xe(dt_from_floats(eval_dev, x.data(), 2, sx));
    Owned ye(dt_from_floats(eval_dev, y.data(), 2, sy));
    Owned z(dt_matmul(xe.t, w[0].t));
    Owned zb(dt_add(z.t, w[1].t));
    Owned h(dt_sigmoid(zb.t));
    Owned o(dt_matmul(h.t, w[2].t));
    Owned p(dt_add(o.t, w[3].t));
    Owned l(dt_mse_loss(p.t, ye.t));
    float v = 0.0f;
    dt_read_floats(l.t, &v, 1);
    return v;
  };

  // The evaluator keeps sim:0 to itself; train on the other simulated device.
  train_dev = dt_autodiff(dt_sim(1));
  Experiment exp(std::make_unique<Model>(train_dev), source, evaluator);

  std::vector<Metrics> log;
  exp.on_step([&log](const Metrics &m) { log.push_back(m); });
  exp.on_step([](const Metrics &m) {
    if (m.step % 2 == 0) std::printf("step %d loss %.4f |g| %.4f\n", m.step, m.loss, m.grad_norm);
  });
  float val = exp.run(steps, 0.2f, eval_dev);
  std::printf("%zu steps logged, validation loss %.4f\n", log.size(), val);
  return 0;
}
