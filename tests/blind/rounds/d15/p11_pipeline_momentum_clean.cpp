// blind round d15 — a three-stage model-parallel MLP with SGD momentum and global-norm clipping.
// Stage devices: autodiff<sim:0>, autodiff<sim:1>, autodiff<cpu> (the head runs on the host).
// Activations hop between stages with dt_to_device between autodiff devices (gradients flow
// back across the hops); the target is moved to the last stage; momentum buffers live in a
// std::map per stage, on that stage's inner device; the global gradient norm is summed on the
// host from per-stage norms. Every device comes from the stage that owns the tensor.
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;

class Stage {
 public:
  Stage(std::string name, dt_device dev, int in, int out, bool last, uint64_t seed)
      : name_(std::move(name)), dev_(dev), last_(last) {
    params_["weight"] = leaf(seed, Shape{in, out}, 0.4f);
    params_["bias"] = leaf(seed + 1, Shape{out}, 0.05f);
  }
  ~Stage() {
    for (auto &kv : params_) dt_free(kv.second);
    for (auto &kv : momentum_) dt_free(kv.second);
  }
  Stage(const Stage &) = delete;
  Stage &operator=(const Stage &) = delete;

  dt_device device() const { return dev_; }
  const std::string &name() const { return name_; }

  // x may come from the previous stage: bring it over first (autodiff to autodiff).
  dt_tensor *forward(const dt_tensor *x_prev) const {
    dt_tensor *x = dt_to_device(x_prev, dev_);
    dt_tensor *a = dt_matmul(x, params_.at("weight"));
    dt_tensor *b = dt_add(a, params_.at("bias"));
    dt_tensor *y = last_ ? b : dt_relu(b);
    dt_free(x);
    dt_free(a);
    if (!last_) dt_free(b);
    return y;
  }

  template <typename Fn>
  void for_each_grad(Fn &&fn) const {
    for (const auto &kv : params_) {
      dt_tensor *g = dt_grad(kv.second);
      if (g) {
        fn(kv.first, g);
        dt_free(g);
      }
    }
  }

  float grad_sq_norm() const {
    float total = 0.0f;
    for_each_grad([&total](const std::string &, dt_tensor *g) {
      dt_tensor *sq = dt_mul(g, g);
      dt_tensor *s = dt_sum(sq);
      float v = 0.0f;
      dt_read_floats(s, &v, 1);
      total += v;
      dt_free(sq);
      dt_free(s);
    });
    return total;
  }

  void momentum_step(float lr, float mu, float clip_scale) {
    std::map<std::string, dt_tensor *> updated;
    for_each_grad([&](const std::string &key, dt_tensor *g) {
      dt_tensor *gs = dt_mul_scalar(g, clip_scale);
      auto it = momentum_.find(key);
      dt_tensor *buf;
      if (it == momentum_.end()) {
        buf = dt_add_scalar(gs, 0.0f);
      } else {
        dt_tensor *decayed = dt_mul_scalar(it->second, mu);
        buf = dt_add(decayed, gs);
        dt_free(decayed);
        dt_free(it->second);
      }
      momentum_[key] = buf;
      dt_tensor *w = dt_inner(params_.at(key));
      dt_tensor *d = dt_mul_scalar(buf, lr);
      dt_tensor *wn = dt_sub(w, d);
      updated[key] = wn;
      dt_free(gs);
      dt_free(w);
      dt_free(d);
    });
    for (auto &kv : updated) {
      dt_free(params_[kv.first]);
      params_[kv.first] = dt_require_grad(dt_from_inner(dev_, kv.second));
      dt_free(kv.second);
    }
  }

 private:
  dt_tensor *leaf(uint64_t seed, const Shape &s, float scale) const {
    dt_tensor *r = dt_randn(dt_inner_device(dev_), seed, static_cast<int>(s.size()), s.data());
    dt_tensor *sc = dt_mul_scalar(r, scale);
    dt_tensor *l = dt_require_grad(dt_from_inner(dev_, sc));
    dt_free(r);
    dt_free(sc);
    return l;
  }

  std::string name_;
  dt_device dev_;
  bool last_;
  std::map<std::string, dt_tensor *> params_;
  std::map<std::string, dt_tensor *> momentum_;
};

class Pipeline {
 public:
  Pipeline() {
    const dt_device devs[] = {dt_autodiff(dt_sim(0)), dt_autodiff(dt_sim(1)), dt_autodiff(dt_cpu())};
    const int widths[] = {5, 8, 6, 2};
    for (int i = 0; i < 3; i++)
      stages_.push_back(std::make_unique<Stage>("stage" + std::to_string(i), devs[i], widths[i],
                                                widths[i + 1], i == 2, 200 + 10 * static_cast<uint64_t>(i)));
  }

  dt_device input_device() const { return stages_.front()->device(); }
  dt_device output_device() const { return stages_.back()->device(); }

  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = dt_to_device(x, input_device());
    for (const auto &s : stages_) {
      dt_tensor *next = s->forward(h);
      dt_free(h);
      h = next;
    }
    return h;
  }

  void step(float lr, float mu, float max_norm) {
    float sq = 0.0f;
    for (const auto &s : stages_) sq += s->grad_sq_norm();
    float norm = std::sqrt(sq);
    float scale = norm > max_norm ? max_norm / norm : 1.0f;
    for (auto &s : stages_) s->momentum_step(lr, mu, scale);
  }

 private:
  std::vector<std::unique_ptr<Stage>> stages_;
};

// The loader hands out batches on the first stage's device, already tracked.
std::pair<dt_tensor *, dt_tensor *> batch(dt_device first, int step) {
  std::vector<float> x(4 * 5), y(4 * 2);
  for (size_t i = 0; i < x.size(); i++) x[i] = static_cast<float>((i * 3 + static_cast<size_t>(step)) % 7) / 7.0f;
  for (size_t i = 0; i < y.size(); i++) y[i] = (i % 2) ? 0.5f : -0.25f;
  return {dt_from_floats(first, x.data(), 2, Shape{4, 5}.data()),
          dt_from_floats(first, y.data(), 2, Shape{4, 2}.data())};
}

}  // namespace

int main() {
  Pipeline model;
  float first_loss = 0.0f, last_loss = 0.0f;
  for (int step = 0; step < 5; step++) {
    auto [x, y] = batch(model.input_device(), step);
    dt_tensor *pred = model.forward(x);
    dt_tensor *target = dt_to_device(y, model.output_device());
    dt_tensor *loss = dt_mse_loss(pred, target);
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    model.step(0.05f, 0.9f, 1.0f);
    if (step == 0) first_loss = lv;
    last_loss = lv;
    for (dt_tensor *t : {x, y, pred, target, loss}) dt_free(t);
  }
  char a[32], b[32];
  dt_device_name(model.input_device(), a, sizeof a);
  dt_device_name(model.output_device(), b, sizeof b);
  std::printf("pipeline %s -> %s: loss %.4f -> %.4f\n", a, b, first_loss, last_loss);
  return 0;
}
