// provenance: blind round cxx1
// template <typename Opt> Trainer whose step() adds an L2 weight-decay term when the
// optimizer asks for one (Opt::kWeightDecay > 0). The decay term is computed from the autodiff
// parameter itself instead of its inner primitive, and added to the plain gradient: for
// Trainer<DecaySgd> every step fails with autodiff-expected. Trainer<Sgd> never takes the branch.
#include <dt/dt.h>

#include <cstdio>
#include <vector>

namespace opt {

struct Sgd {
  static constexpr float kWeightDecay = 0.0f;
  float lr;
  dt_tensor *apply(dt_tensor *inner_value, dt_tensor *grad) const {
    dt_tensor *scaled = dt_mul_scalar(grad, lr);
    dt_tensor *next = dt_sub(inner_value, scaled);
    dt_free(scaled);
    return next;
  }
};

struct DecaySgd {
  static constexpr float kWeightDecay = 0.01f;
  float lr;
  dt_tensor *apply(dt_tensor *inner_value, dt_tensor *grad) const {
    dt_tensor *scaled = dt_mul_scalar(grad, lr);
    dt_tensor *next = dt_sub(inner_value, scaled);
    dt_free(scaled);
    return next;
  }
};

}  // namespace opt

namespace train {

template <typename Opt>
class Trainer {
 public:
  Trainer(dt_device inner, Opt o) : inner_(inner), ad_(dt_autodiff(inner)), opt_(o) {
    const int64_t shape[] = {4, 1};
    w_ = dt_require_grad(dt_randn(ad_, 3, 2, shape));
  }
  ~Trainer() { dt_free(w_); }

  float step(const std::vector<float> &xs, const std::vector<float> &ys) {
    const int64_t xshape[] = {static_cast<int64_t>(xs.size() / 4), 4};
    const int64_t yshape[] = {static_cast<int64_t>(ys.size()), 1};
    dt_tensor *x = dt_from_floats(ad_, xs.data(), 2, xshape);
    dt_tensor *y = dt_from_floats(ad_, ys.data(), 2, yshape);
    dt_tensor *pred = dt_matmul(x, w_);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    float value = 0.0f;
    dt_read_floats(loss, &value, 1);

    dt_tensor *g = dt_grad(w_);
    if (Opt::kWeightDecay > 0.0f) {
      dt_tensor *decay = dt_mul_scalar(w_, Opt::kWeightDecay);
      dt_tensor *g2 = dt_add(g, decay); // expect-error: autodiff-expected
      dt_free(decay);
      dt_free(g);
      g = g2;
    }
    dt_tensor *inner_value = dt_inner(w_);
    dt_tensor *next = opt_.apply(inner_value, g);
    dt_free(w_);
    w_ = dt_require_grad(dt_from_inner(ad_, next));
    dt_free(next);
    dt_free(inner_value);
    dt_free(g);
    dt_free(loss);
    dt_free(pred);
    dt_free(y);
    dt_free(x);
    return value;
  }

 private:
  dt_device inner_;
  dt_device ad_;
  Opt opt_;
  dt_tensor *w_ = nullptr;
};

template <typename Opt>
float run_epochs(Trainer<Opt> &t, int n) {
  std::vector<float> xs(16), ys(4);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i % 4) * 0.25f;
  for (size_t i = 0; i < ys.size(); ++i) ys[i] = 1.0f;
  float l = 0.0f;
  for (int i = 0; i < n; ++i) l = t.step(xs, ys);
  return l;
}

}  // namespace train

int main() {
  train::Trainer<opt::Sgd> baseline(dt_cpu(), opt::Sgd{0.1f});
  std::printf("sgd: %.4f\n", train::run_epochs(baseline, 3));
  train::Trainer<opt::DecaySgd> regularised(dt_sim(1), opt::DecaySgd{0.1f});
  std::printf("decay: %.4f\n", train::run_epochs(regularised, 3));
  return 0;
}
