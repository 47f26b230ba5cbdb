// provenance: blind round cxx1
// A generic trainer, template <typename Opt>, instantiated with two optimizers (SGD and
// momentum SGD). Parameters are autodiff tensors on autodiff<sim:0>; gradients are plain
// tensors on sim:0, so every update works on dt_inner(param) and re-wraps the result with
// dt_from_inner. The momentum buffers are plain sim:0 tensors. Everything agrees: clean.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <vector>

namespace train {

struct Param {
  dt_tensor *value;  // autodiff leaf
  int64_t rows, cols;
};

class Sgd {
 public:
  explicit Sgd(float lr) : lr_(lr) {}
  void init(dt_device /*inner*/, const std::vector<Param> & /*params*/) {}
  dt_tensor *update(size_t /*index*/, dt_tensor *inner_value, dt_tensor *grad) {
    dt_tensor *scaled = dt_mul_scalar(grad, lr_);
    dt_tensor *next = dt_sub(inner_value, scaled);
    dt_free(scaled);
    return next;
  }
  const char *name() const { return "sgd"; }

 private:
  float lr_;
};

class Momentum {
 public:
  Momentum(float lr, float beta) : lr_(lr), beta_(beta) {}
  ~Momentum() {
    for (dt_tensor *v : velocity_) dt_free(v);
  }
  void init(dt_device inner, const std::vector<Param> &params) {
    for (const Param &p : params) {
      const int64_t shape[] = {p.rows, p.cols};
      velocity_.push_back(dt_zeros(inner, DT_FLOAT, 2, shape));
    }
  }
  dt_tensor *update(size_t index, dt_tensor *inner_value, dt_tensor *grad) {
    dt_tensor *&v = velocity_[index];
    dt_tensor *decayed = dt_mul_scalar(v, beta_);
    dt_tensor *nv = dt_add(decayed, grad);
    dt_free(decayed);
    dt_free(v);
    v = nv;
    dt_tensor *step = dt_mul_scalar(v, lr_);
    dt_tensor *next = dt_sub(inner_value, step);
    dt_free(step);
    return next;
  }
  const char *name() const { return "momentum"; }

 private:
  float lr_, beta_;
  std::vector<dt_tensor *> velocity_;
};

template <typename Opt>
class Trainer {
 public:
  Trainer(dt_device inner, Opt opt, int64_t in, int64_t out)
      : inner_(inner), ad_(dt_autodiff(inner)), opt_(opt), in_(in), out_(out) {
    const int64_t wshape[] = {in_, out_};
    const int64_t bshape[] = {1, out_};
    params_.push_back(Param{dt_require_grad(dt_randn(ad_, 5, 2, wshape)), in_, out_});
    params_.push_back(Param{dt_require_grad(dt_zeros(ad_, DT_FLOAT, 2, bshape)), 1, out_});
    opt_.init(inner_, params_);
  }
  ~Trainer() {
    for (Param &p : params_) dt_free(p.value);
  }

  dt_tensor *forward(dt_tensor *x) {
    dt_tensor *h = dt_matmul(x, params_[0].value);
    dt_tensor *y = dt_add(h, params_[1].value);
    dt_free(h);
    return y;
  }

  float step(const float *xs, const float *ys, int64_t batch) {
    const int64_t xshape[] = {batch, in_};
    const int64_t yshape[] = {batch, out_};
    dt_tensor *x = dt_from_floats(ad_, xs, 2, xshape);
    dt_tensor *y_plain = dt_from_floats(inner_, ys, 2, yshape);
    dt_tensor *y = dt_from_inner(ad_, y_plain);
    dt_tensor *pred = forward(x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    float value = 0.0f;
    dt_read_floats(loss, &value, 1);
    for (size_t i = 0; i < params_.size(); ++i) {
      Param &p = params_[i];
      dt_tensor *g = dt_grad(p.value);
      if (!g) continue;
      dt_tensor *inner_value = dt_inner(p.value);
      dt_tensor *next = opt_.update(i, inner_value, g);
      dt_free(p.value);
      p.value = dt_require_grad(dt_from_inner(ad_, next));
      dt_free(next);
      dt_free(inner_value);
      dt_free(g);
    }
    dt_free(loss);
    dt_free(pred);
    dt_free(y);
    dt_free(y_plain);
    dt_free(x);
    return value;
  }

  const char *optimizer_name() const { return opt_.name(); }

 private:
  dt_device inner_;
  dt_device ad_;
  Opt opt_;
  int64_t in_, out_;
  std::vector<Param> params_;
};

template <typename Opt>
float fit(Trainer<Opt> &trainer, int epochs) {
  constexpr int64_t kBatch = 4;
  std::array<float, kBatch * 3> xs{};
  std::array<float, kBatch * 2> ys{};
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = 0.1f * static_cast<float>(i % 5);
  for (size_t i = 0; i < ys.size(); ++i) ys[i] = 0.5f - 0.05f * static_cast<float>(i);
  float last = 0.0f;
  for (int e = 0; e < epochs; ++e) last = trainer.step(xs.data(), ys.data(), kBatch);
  return last;
}

}  // namespace train

int main() {
  dt_device accel = dt_sim(0);
  train::Trainer<train::Sgd> plain(accel, train::Sgd(0.05f), 3, 2);
  float l1 = train::fit(plain, 5);
  std::printf("%s loss %.5f\n", plain.optimizer_name(), l1);

  // The momentum trainer runs on the host: the template is instantiated the same way but
  // every tensor of it agrees with the cpu device.
  train::Trainer<train::Momentum> mom(dt_cpu(), train::Momentum(0.05f, 0.9f), 3, 2);
  float l2 = train::fit(mom, 5);
  std::printf("%s loss %.5f\n", mom.optimizer_name(), l2);
  return 0;
}
