// blind round d15 — moving a model to another device mid-training, optimizer state left behind.
// A Module holds its parameters in a std::vector<Param>; Module::to() re-homes each one
// (inner tensor moved, rewrapped on the new autodiff device). The SGD-momentum optimizer keys
// its buffers by parameter name and creates them lazily on the gradient's device. After the
// warm-up on autodiff<sim:0> the trainer migrates the model to autodiff<sim:1> — the loader
// follows the model, the optimizer's buffers do not, and the first step after the move adds
// a sim:0 buffer to a sim:1 gradient. (PyTorch users know this one: optimizer.load_state_dict
// before model.to().)
#include <dt/dt.h>

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;

struct Param {
  std::string name;
  Shape shape;
  dt_tensor *value = nullptr;  // autodiff leaf on the module's device
};

class Module {
 public:
  explicit Module(dt_device dev) : dev_(dev) {}
  ~Module() {
    for (auto &p : params_) dt_free(p.value);
  }
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  void add(const std::string &name, const Shape &shape, uint64_t seed, float scale) {
    dt_tensor *r = dt_randn(dt_inner_device(dev_), seed, static_cast<int>(shape.size()), shape.data());
    dt_tensor *s = dt_mul_scalar(r, scale);
    params_.push_back(Param{name, shape, dt_require_grad(dt_from_inner(dev_, s))});
    dt_free(r);
    dt_free(s);
  }

  const dt_tensor *get(const std::string &name) const {
    for (const auto &p : params_)
      if (p.name == name) return p.value;
    return nullptr;
  }

  std::vector<Param> &params() { return params_; }
  dt_device device() const { return dev_; }

  // Re-homes every parameter: plain inner tensor moved, then rewrapped as a fresh leaf.
  void to(dt_device dev) {
    for (auto &p : params_) {
      dt_tensor *inner = dt_inner(p.value);
      dt_tensor *moved = dt_to_device(inner, dt_inner_device(dev));
      dt_free(p.value);
      p.value = dt_require_grad(dt_from_inner(dev, moved));
      dt_free(inner);
      dt_free(moved);
    }
    dev_ = dev;
  }

 private:
  dt_device dev_;
  std::vector<Param> params_;
};

class SgdMomentum {
 public:
  SgdMomentum(float lr, float mu) : lr_(lr), mu_(mu) {}
  ~SgdMomentum() {
    for (auto &kv : state_) dt_free(kv.second);
  }

  void step(Module &m) {
    for (auto &p : m.params()) {
      dt_tensor *g = dt_grad(p.value);
      if (!g) continue;
      dt_tensor *&buf = state_[p.name];
      if (buf == nullptr) {
        buf = dt_mul_scalar(g, 1.0f);
      } else {
        dt_tensor *decayed = dt_mul_scalar(buf, mu_);
        dt_tensor *next = dt_add(decayed, g); // expect-error: device-mismatch
        dt_free(decayed);
        if (next == nullptr) {
          dt_free(g);
          continue;
        }
        dt_free(buf);
        buf = next;
      }
      dt_tensor *w = dt_inner(p.value);
      dt_tensor *d = dt_mul_scalar(buf, lr_);
      dt_tensor *wn = dt_sub(w, d);
      dt_free(p.value);
      p.value = dt_require_grad(dt_from_inner(m.device(), wn));
      for (dt_tensor *t : {g, w, d, wn}) dt_free(t);
    }
  }

  size_t buffers() const { return state_.size(); }

 private:
  float lr_, mu_;
  std::map<std::string, dt_tensor *> state_;
};

class Loader {
 public:
  explicit Loader(std::function<dt_device()> where) : where_(std::move(where)) {}
  std::pair<dt_tensor *, dt_tensor *> next() {
    std::vector<float> x(6 * 4), y(6);
    for (size_t i = 0; i < x.size(); i++) x[i] = static_cast<float>((i * 5 + step_) % 9) / 9.0f;
    for (size_t i = 0; i < y.size(); i++) y[i] = x[i * 4] - 0.5f * x[i * 4 + 3];
    step_++;
    dt_device d = where_();
    return {dt_from_floats(d, x.data(), 2, Shape{6, 4}.data()),
            dt_from_floats(d, y.data(), 2, Shape{6, 1}.data())};
  }

 private:
  std::function<dt_device()> where_;
  size_t step_ = 0;
};

dt_tensor *forward(const Module &m, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, m.get("fc1.weight"));
  dt_tensor *b = dt_add(a, m.get("fc1.bias"));
  dt_tensor *h = dt_sigmoid(b);
  dt_tensor *y = dt_matmul(h, m.get("fc2.weight"));
  for (dt_tensor *t : {a, b, h}) dt_free(t);
  return y;
}

class Trainer {
 public:
  Trainer() : model_(dt_autodiff(dt_sim(0))), opt_(0.1f, 0.9f), loader_([this] { return model_.device(); }) {
    model_.add("fc1.weight", {4, 6}, 1, 0.4f);
    model_.add("fc1.bias", {6}, 2, 0.1f);
    model_.add("fc2.weight", {6, 1}, 3, 0.4f);
  }

  float step() {
    auto batch = loader_.next();
    dt_tensor *pred = forward(model_, batch.first);
    dt_tensor *loss = dt_mse_loss(pred, batch.second);
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    opt_.step(model_);
    for (dt_tensor *t : {batch.first, batch.second, pred, loss}) dt_free(t);
    return lv;
  }

  void migrate(dt_device dev) { model_.to(dev); }
  const Module &model() const { return model_; }
  size_t optimizer_buffers() const { return opt_.buffers(); }

 private:
  Module model_;
  SgdMomentum opt_;
  Loader loader_;
};

}  // namespace

int main() {
  Trainer trainer;
  for (int i = 0; i < 3; i++) std::printf("warm-up %d: %.4f\n", i, trainer.step());
  trainer.migrate(dt_autodiff(dt_sim(1)));
  char name[32];
  dt_device_name(trainer.model().device(), name, sizeof name);
  std::printf("migrated to %s with %zu optimizer buffers\n", name, trainer.optimizer_buffers());
  for (int i = 0; i < 3; i++) std::printf("step %d: %.4f\n", i, trainer.step());
  return 0;
}
