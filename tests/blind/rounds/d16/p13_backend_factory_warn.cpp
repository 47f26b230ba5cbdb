// provenance: blind round d16
// p13: a trainer parameterised by a Backend class hierarchy chosen on the command line
// (`--cpu`, `--sim1`, default sim:0) through a factory returning unique_ptr<Backend>. The
// model, its optimizer and its batches all follow backend->device(). The held-out set for
// validation is staged once, up front, on the first simulated device, and validation runs
// the trained weights (their plain primitives) against it.
// run-args: --cpu
#include <dt/dt.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class Backend {
 public:
  virtual ~Backend() = default;
  virtual dt_device device() const = 0;
  virtual std::string name() const = 0;
  virtual float default_lr() const { return 0.1f; }
  dt_device autodiff_device() const { return dt_autodiff(device()); }
};

class CpuBackend final : public Backend {
 public:
  dt_device device() const override { return dt_cpu(); }
  std::string name() const override { return "cpu"; }
  float default_lr() const override { return 0.05f; }
};

class SimBackend : public Backend {
 public:
  explicit SimBackend(int ordinal) : ordinal_(ordinal) {}
  dt_device device() const override { return dt_sim(ordinal_); }
  std::string name() const override { return "sim:" + std::to_string(ordinal_); }

 private:
  int ordinal_;
};

static std::unique_ptr<Backend> make_backend(const std::vector<std::string> &args) {
  for (const auto &a : args) {
    if (a == "--cpu") return std::make_unique<CpuBackend>();
    if (a == "--sim1") return std::make_unique<SimBackend>(1);
  }
  return std::make_unique<SimBackend>(0);
}

struct T {
  dt_tensor *p = nullptr;
  T() = default;
  explicit T(dt_tensor *x) : p(x) {}
  T(T &&o) noexcept : p(o.p) { o.p = nullptr; }
  T &operator=(T &&o) noexcept {
    std::swap(p, o.p);
    return *this;
  }
  T(const T &) = delete;
  T &operator=(const T &) = delete;
  ~T() { dt_free(p); }
};

struct Dataset {
  T x, y;
};

static Dataset make_dataset(dt_device d, int seed, int64_t rows) {
  std::vector<float> x((size_t)(rows * 2)), y((size_t)rows);
  for (int64_t r = 0; r < rows; r++) {
    float a = (float)((seed * 3 + r * 5) % 7) / 7.0f;
    float b = (float)((seed * 5 + r * 3) % 9) / 9.0f;
    x[(size_t)(2 * r)] = a;
    x[(size_t)(2 * r + 1)] = b;
    y[(size_t)r] = 1.5f * a - 0.5f * b + 0.2f;
  }
  const int64_t sx[2] = {rows, 2}, sy[2] = {rows, 1};
  return {T(dt_from_floats(d, x.data(), 2, sx)), T(dt_from_floats(d, y.data(), 2, sy))};
}

class LinearModel {
 public:
  explicit LinearModel(const Backend &be) : ad_(be.autodiff_device()) {
    const int64_t sw[2] = {2, 1}, sb[1] = {1};
    w_ = T(dt_require_grad(dt_zeros(ad_, DT_FLOAT, 2, sw)));
    b_ = T(dt_require_grad(dt_zeros(ad_, DT_FLOAT, 1, sb)));
  }
  virtual ~LinearModel() = default;

  virtual T forward(const dt_tensor *x) const {
    T z(dt_matmul(x, w_.p));
    return T(dt_add(z.p, b_.p));
  }

  std::pair<T *, T *> params() { return {&w_, &b_}; }
  dt_device device() const { return ad_; }

  // The trained weights as plain tensors of the backend.
  std::pair<T, T> frozen() const { return {T(dt_inner(w_.p)), T(dt_inner(b_.p))}; }

 protected:
  dt_device ad_;
  T w_, b_;
};

class ClippedLinear : public LinearModel {
 public:
  using LinearModel::LinearModel;
  T forward(const dt_tensor *x) const override {
    T y = LinearModel::forward(x);
    T t(dt_tanh(y.p));
    return T(dt_mul_scalar(t.p, 2.0f));
  }
};

class Sgd {
 public:
  explicit Sgd(float lr) : lr_(lr) {}
  void step(LinearModel &m) {
    auto [w, b] = m.params();
    for (T *p : {w, b}) {
      T g(dt_grad(p->p));
      if (!g.p) continue;
      T inner(dt_inner(p->p));
      T d(dt_mul_scalar(g.p, lr_));
      T next(dt_sub(inner.p, d.p));
      *p = T(dt_require_grad(dt_from_inner(m.device(), next.p)));
    }
  }

 private:
  float lr_;
};

static float to_host(const dt_tensor *t) {
  float v = -1.0f;
  if (t) dt_read_floats(t, &v, 1);
  return v;
}

// Mean squared error of the frozen weights on a plain dataset.
static float validate(const LinearModel &m, const Dataset &held_out) {
  auto [w, b] = m.frozen();
  T z(dt_matmul(held_out.x.p, w.p)); // expect-warning: backend-mismatch, device-mismatch
  T pred(dt_add(z.p, b.p));
  T loss(dt_mse_loss(pred.p, held_out.y.p));
  return to_host(loss.p);
}

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::unique_ptr<Backend> backend = make_backend(args);
  bool clipped = false;
  for (const auto &a : args) clipped = clipped || a == "--clip";
  std::optional<float> best;

  // staged once, before the backend is known to the data pipeline
  Dataset held_out = make_dataset(dt_sim(0), 77, 8);

  std::unique_ptr<LinearModel> model = clipped ? std::make_unique<ClippedLinear>(*backend)
                                               : std::make_unique<LinearModel>(*backend);
  Sgd opt(backend->default_lr());
  for (int epoch = 0; epoch < 4; epoch++) {
    for (int k = 0; k < 3; k++) {
      Dataset d = make_dataset(backend->device(), epoch * 3 + k, 6);
      T x(dt_from_inner(model->device(), d.x.p));
      T y(dt_from_inner(model->device(), d.y.p));
      T pred = model->forward(x.p);
      T loss(dt_mse_loss(pred.p, y.p));
      dt_backward(loss.p);
      opt.step(*model);
    }
    float v = validate(*model, held_out);
    if (!best || v < *best) best = v;
    std::printf("[%s] epoch %d validation %.5f\n", backend->name().c_str(), epoch, v);
  }
  std::printf("best %.5f\n", best.value_or(-1.0f));
  return 0;
}
