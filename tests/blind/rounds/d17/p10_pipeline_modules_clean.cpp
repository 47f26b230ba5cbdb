// p10_pipeline_modules_clean.cpp — a pipeline-parallel MLP: std::vector<std::unique_ptr<Stage>>
// with a virtual forward, each stage constructed on its own autodiff device from a placement
// list (autodiff<sim:0>, autodiff<sim:0>, autodiff<sim:1>), and a LayerNorm-like Scale stage
// without weights. The activation is moved between stages with dt_to_device on autodiff
// devices, so it stays tracked and gradients flow back across the move; each stage then
// reads its gradients on its own inner device and updates with std::for_each. The targets
// are placed on the last stage's device via dt_device_of(output), which is where the loss is.
// Tricky but correct: device-dependent moves inside a loop, a helper template over stages,
// and gradients of one graph living on two devices.
#include <dt/dt.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int64_t kBatch = 5, kWidth = 4;

class Stage {
 public:
  explicit Stage(dt_device dev) : dev_(dev) {}
  virtual ~Stage() = default;
  virtual dt_tensor *forward(const dt_tensor *x) = 0;
  virtual std::vector<dt_tensor **> parameters() { return {}; }
  dt_device device() const { return dev_; }

 protected:
  dt_device dev_;
};

class Dense : public Stage {
 public:
  Dense(dt_device dev, uint64_t seed, bool act) : Stage(dev), act_(act) {
    const int64_t ws[2] = {kWidth, kWidth}, bs[1] = {kWidth};
    dt_tensor *w = dt_randn(dt_inner_device(dev), seed, 2, ws);
    dt_tensor *w_small = dt_mul_scalar(w, 0.4f);
    w_ = dt_require_grad(dt_from_inner(dev, w_small));
    b_ = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, bs));
    dt_free(w);
    dt_free(w_small);
  }
  ~Dense() override {
    dt_free(w_);
    dt_free(b_);
  }
  dt_tensor *forward(const dt_tensor *x) override {
    dt_tensor *z = dt_matmul(x, w_);
    dt_tensor *zb = dt_add(z, b_);
    dt_free(z);
    if (!act_)
      return zb;
    dt_tensor *a = dt_relu(zb);
    dt_free(zb);
    return a;
  }
  std::vector<dt_tensor **> parameters() override { return {&w_, &b_}; }

 private:
  bool act_;
  dt_tensor *w_ = nullptr;
  dt_tensor *b_ = nullptr;
};

class Scale : public Stage {
 public:
  Scale(dt_device dev, float s) : Stage(dev), s_(s) {}
  dt_tensor *forward(const dt_tensor *x) override { return dt_mul_scalar(x, s_); }

 private:
  float s_;
};

class Pipeline {
 public:
  template <typename T, typename... Args>
  T &add(Args &&...args) {
    stages_.push_back(std::make_unique<T>(std::forward<Args>(args)...));
    return static_cast<T &>(*stages_.back());
  }

  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = dt_to_device(x, stages_.front()->device());
    for (const auto &s : stages_) {
      if (!dt_device_equal(dt_device_of(h), s->device())) {
        dt_tensor *moved = dt_to_device(h, s->device());
        dt_free(h);
        h = moved;
      }
      dt_tensor *next = s->forward(h);
      dt_free(h);
      h = next;
    }
    return h;
  }

  void sgd(float lr) {
    for (auto &s : stages_) {
      auto ps = s->parameters();
      std::for_each(ps.begin(), ps.end(), [&](dt_tensor **slot) {
        dt_tensor *g = dt_grad(*slot);
        if (!g)
          return;
        dt_tensor *inner = dt_inner(*slot);
        dt_tensor *delta = dt_mul_scalar(g, lr);
        dt_tensor *next = dt_sub(inner, delta);
        dt_free(*slot);
        *slot = dt_require_grad(dt_from_inner(s->device(), next));
        for (dt_tensor *t : {g, inner, delta, next})
          dt_free(t);
      });
    }
  }

  size_t size() const { return stages_.size(); }

 private:
  std::vector<std::unique_ptr<Stage>> stages_;
};

dt_tensor *host_batch(int step, bool targets) {
  std::vector<float> v(kBatch * kWidth);
  for (size_t i = 0; i < v.size(); i++)
    v[i] = targets ? static_cast<float>(i % 3) * 0.2f
                   : static_cast<float>((static_cast<int>(i) + step) % 5) * 0.3f - 0.6f;
  const int64_t shape[2] = {kBatch, kWidth};
  return dt_from_floats(dt_cpu(), v.data(), 2, shape);
}

}  // namespace

int main() {
  const std::vector<dt_device> placement = {dt_autodiff(dt_sim(0)), dt_autodiff(dt_sim(0)),
                                            dt_autodiff(dt_sim(1))};
  Pipeline net;
  uint64_t seed = 30;
  for (const dt_device &d : placement)
    net.add<Dense>(d, seed++, true);
  net.add<Scale>(placement.back(), 0.5f);
  net.add<Dense>(placement.back(), seed, false);

  const dt_device input_dev = placement.front();
  for (int step = 0; step < 4; step++) {
    dt_tensor *xh = host_batch(step, false);
    dt_tensor *xi = dt_to_device(xh, dt_inner_device(input_dev));
    dt_tensor *x = dt_from_inner(input_dev, xi);
    dt_tensor *out = net.forward(x);
    const dt_device out_dev = dt_device_of(out);
    dt_tensor *yh = host_batch(step, true);
    dt_tensor *yi = dt_to_device(yh, dt_inner_device(out_dev));
    dt_tensor *y = dt_from_inner(out_dev, yi);
    dt_tensor *loss = dt_mse_loss(out, y);
    dt_backward(loss);
    float l = 0.0f;
    dt_read_floats(loss, &l, 1);
    net.sgd(0.2f);
    char name[32];
    dt_device_name(out_dev, name, sizeof name);
    std::printf("step %d loss %.5f (output on %s, %zu stages)\n", step, l, name, net.size());
    for (dt_tensor *t : {xh, xi, x, out, yh, yi, y, loss})
      dt_free(t);
  }
  return 0;
}
