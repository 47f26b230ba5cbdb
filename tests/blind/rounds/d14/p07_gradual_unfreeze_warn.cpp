// Fine-tuning with gradual unfreezing (ULMFiT style): a pretrained encoder stack and a new
// classifier on autodiff<device>. Layers below the freeze line keep plain weights (no graph, no
// optimizer state); the line moves down one layer per epoch. Discriminative learning rates,
// SGD with momentum through a templated trainer.
// run-args: --device sim1 --freeze 2 --epochs 3
#include <dt/dt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int64_t D = 6, CLS = 2, B = 4;

struct Del { void operator()(dt_tensor *t) const { dt_free(t); } };
using T = std::unique_ptr<dt_tensor, Del>;

class Layer {
 public:
  Layer(dt_device ad, int64_t in, int64_t out, uint64_t seed, bool act) : ad_(ad), act_(act) {
    int64_t s[2] = {in, out};
    w_ = T(dt_mul_scalar(dt_randn(dt_inner_device(ad), seed, 2, s), 0.35f));
  }
  void set_frozen(bool f) { frozen_ = f; }
  bool frozen() const { return frozen_; }

  T forward(dt_tensor *x) {
    dt_tensor *w = w_.get();
    if (!frozen_) {
      tracked_ = T(dt_require_grad(dt_from_inner(ad_, w_.get())));
      w = tracked_.get();
    }
    T z(dt_matmul(x, w)); // expect-warning: autodiff-expected
    return act_ ? T(dt_tanh(z.get())) : std::move(z);
  }

  template <typename Opt>
  void update(Opt &opt, float lr) {
    if (frozen_ || !tracked_) return;
    T g(dt_grad(tracked_.get()));
    tracked_.reset();
    if (g) opt.apply(this, w_, g.get(), lr);
  }

 private:
  dt_device ad_;
  bool act_, frozen_ = false;
  T w_, tracked_;
};

struct Momentum {
  float mu = 0.9f;
  std::vector<std::pair<const Layer *, T>> vel;
  void apply(const Layer *key, T &w, dt_tensor *g, float lr) {
    auto it = std::find_if(vel.begin(), vel.end(), [key](const auto &p) { return p.first == key; });
    if (it == vel.end()) { vel.emplace_back(key, T(dt_mul_scalar(g, 0.0f))); it = vel.end() - 1; }
    it->second = T(dt_add(T(dt_mul_scalar(it->second.get(), mu)).get(), g));
    w = T(dt_sub(w.get(), T(dt_mul_scalar(it->second.get(), lr)).get()));
  }
};

template <typename Opt>
class Trainer {
 public:
  Trainer(dt_device ad, std::vector<std::unique_ptr<Layer>> &layers, Opt &opt, std::function<int(int)> freeze_at)
      : ad_(ad), layers_(layers), opt_(opt), freeze_at_(std::move(freeze_at)) {}

  float epoch(int e, float base_lr, float decay) {
    int frozen = freeze_at_(e);
    for (size_t l = 0; l < layers_.size(); l++) layers_[l]->set_frozen((int)l < frozen);
    float total = 0.0f;
    for (int b = 0; b < 3; b++) {
      std::vector<float> xh(B * D), yh(B * CLS);
      for (int r = 0; r < B; r++) {
        int c = (r + b + e) % CLS;
        for (int k = 0; k < D; k++) xh[r * D + k] = (k % CLS == c ? 0.7f : -0.3f) + 0.05f * (float)b;
        for (int k = 0; k < CLS; k++) yh[r * CLS + k] = k == c ? 1.0f : 0.0f;
      }
      int64_t xs[2] = {B, D}, ys[2] = {B, CLS};
      T h(dt_from_floats(ad_, xh.data(), 2, xs));
      for (auto &layer : layers_) h = layer->forward(h.get());
      T y(dt_from_floats(ad_, yh.data(), 2, ys));
      T loss(dt_mse_loss(T(dt_sigmoid(h.get())).get(), y.get()));
      float lv = 0.0f;
      dt_read_floats(loss.get(), &lv, 1);
      total += lv;
      dt_backward(loss.get());
      size_t n = layers_.size();
      for (size_t l = 0; l < n; l++) layers_[l]->update(opt_, base_lr * std::pow(decay, (float)(n - 1 - l)));
    }
    return total / 3.0f;
  }

 private:
  dt_device ad_;
  std::vector<std::unique_ptr<Layer>> &layers_;
  Opt &opt_;
  std::function<int(int)> freeze_at_;
};

}  // namespace

int main(int argc, char **argv) {
  dt_device dev = dt_cpu();
  int freeze = 0, epochs = 3, depth = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device")) dev = !std::strcmp(argv[i + 1], "sim1") ? dt_sim(1) : !std::strcmp(argv[i + 1], "sim0") ? dt_sim(0) : dt_cpu();
    else if (!std::strcmp(argv[i], "--freeze")) freeze = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--depth")) depth = std::max(1, std::atoi(argv[i + 1]));
  }
  dt_device ad = dt_autodiff(dev);
  std::vector<std::unique_ptr<Layer>> layers;
  for (int l = 0; l < depth; l++) layers.push_back(std::make_unique<Layer>(ad, D, D, 200 + (uint64_t)l, true));
  layers.push_back(std::make_unique<Layer>(ad, D, CLS, 300, false));  // new head: never frozen
  Momentum opt;
  int encoder = depth;
  Trainer<Momentum> trainer(ad, layers, opt, [freeze, encoder](int e) { return std::min(encoder, std::max(0, freeze - e)); });
  for (int e = 0; e < epochs; e++) std::printf("epoch %d loss %.4f\n", e, trainer.epoch(e, 0.1f, 0.7f));
  return 0;
}
