// Early-exit network: a backbone of blocks on autodiff<sim:0> with a classifier head after each
// block. The heads may be kept on another device (--exit-device cpu) to save accelerator memory.
// Training weights the exits' losses; inference stops at the first exit whose confidence passes
// --threshold.
// run-args: --exit-device cpu --epochs 3 --threshold 0.4
#include <dt/dt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

namespace {

constexpr int64_t F = 6, C = 3, N = 6;

struct Del { void operator()(dt_tensor *t) const { dt_free(t); } };
using T = std::unique_ptr<dt_tensor, Del>;

struct Param {
  T value;  // plain, on the owner's inner device
  T tracked;
  dt_tensor *track(dt_device ad) { tracked = T(dt_require_grad(dt_from_inner(ad, value.get()))); return tracked.get(); }
  void sgd(float lr) {
    T g(dt_grad(tracked.get()));
    if (g) value = T(dt_sub(value.get(), T(dt_mul_scalar(g.get(), lr)).get()));
    tracked.reset();
  }
};

class Head {
 public:
  explicit Head(dt_device ad) : ad_(ad) {}
  virtual ~Head() = default;
  virtual T forward(dt_tensor *h, bool train) = 0;
  virtual void step(float lr) = 0;
  dt_device device() const { return ad_; }
 protected:
  dt_device ad_;
};

class LinearHead : public Head {
 public:
  LinearHead(dt_device ad, uint64_t seed) : Head(ad) {
    int64_t s[2] = {F, C};
    w_.value = T(dt_mul_scalar(dt_randn(dt_inner_device(ad), seed, 2, s), 0.4f));
  }
  T forward(dt_tensor *h, bool train) override {
    return T(dt_sigmoid(dt_matmul(h, train ? w_.track(ad_) : w_.value.get())));
  }
  void step(float lr) override { w_.sgd(lr); }
 private:
  Param w_;
};

class MlpHead : public Head {
 public:
  MlpHead(dt_device ad, uint64_t seed) : Head(ad) {
    int64_t s1[2] = {F, F}, s2[2] = {F, C};
    a_.value = T(dt_mul_scalar(dt_randn(dt_inner_device(ad), seed, 2, s1), 0.4f));
    b_.value = T(dt_mul_scalar(dt_randn(dt_inner_device(ad), seed + 1, 2, s2), 0.4f));
  }
  T forward(dt_tensor *h, bool train) override {
    T z(dt_relu(dt_matmul(h, train ? a_.track(ad_) : a_.value.get())));
    return T(dt_sigmoid(dt_matmul(z.get(), train ? b_.track(ad_) : b_.value.get())));
  }
  void step(float lr) override { a_.sgd(lr); b_.sgd(lr); }
 private:
  Param a_, b_;
};

struct Block {
  Param w;
  Block(dt_device d, uint64_t seed) { int64_t s[2] = {F, F}; w.value = T(dt_mul_scalar(dt_randn(d, seed, 2, s), 0.4f)); }
  T forward(dt_tensor *h, dt_tensor *wt) const { return T(dt_add(h, T(dt_tanh(T(dt_matmul(h, wt)).get())).get())); }
};

struct EarlyExitNet {
  dt_device ad;
  std::vector<Block> blocks;
  std::vector<std::unique_ptr<Head>> heads;
  std::vector<T> calib;  // per-exit, per-class scales fitted after training

  // scales each exit's class scores so that its mean score on the training batch is 1/C
  void calibrate(const std::vector<float> &x) {
    int64_t xs[2] = {N, F}, cs[2] = {1, C};
    calib.clear();
    T h(dt_from_floats(dt_inner_device(ad), x.data(), 2, xs));
    for (size_t i = 0; i < blocks.size(); i++) {
      h = blocks[i].forward(h.get(), blocks[i].w.value.get());
      T hx(dt_to_device(h.get(), dt_inner_device(heads[i]->device())));
      T p = heads[i]->forward(hx.get(), false);
      T mean(dt_sum_dim(p.get(), 0));
      float m[C], scale[C];
      dt_read_floats(mean.get(), m, C);
      for (int k = 0; k < C; k++) scale[k] = (float)N / ((float)C * (m[k] > 1e-3f ? m[k] : 1e-3f));
      calib.emplace_back(dt_from_floats(dt_inner_device(ad), scale, 2, cs));
    }
  }

  EarlyExitNet(dt_device backbone, dt_device exit_dev, int depth) : ad(dt_autodiff(backbone)) {
    dt_device head_ad = dt_autodiff(exit_dev);
    for (int i = 0; i < depth; i++) {
      blocks.emplace_back(backbone, 10 + (uint64_t)i);
      if (i + 1 < depth) heads.push_back(std::make_unique<LinearHead>(head_ad, 30 + (uint64_t)i));
      else heads.push_back(std::make_unique<MlpHead>(head_ad, 60));
    }
  }

  float train_batch(const std::vector<float> &x, const std::vector<float> &y, const std::vector<float> &exit_w, float lr) {
    int64_t xs[2] = {N, F}, ys[2] = {N, C};
    T h(dt_from_floats(ad, x.data(), 2, xs));
    T total(dt_zeros(ad, DT_FLOAT, 0, nullptr));
    for (size_t i = 0; i < blocks.size(); i++) {
      h = blocks[i].forward(h.get(), blocks[i].w.track(ad));
      Head &hd = *heads[i];
      T hx(dt_to_device(h.get(), hd.device()));
      T target(dt_from_floats(hd.device(), y.data(), 2, ys));
      T li(dt_mse_loss(hd.forward(hx.get(), true).get(), target.get()));
      T back(dt_to_device(li.get(), ad));
      total = T(dt_add(total.get(), T(dt_mul_scalar(back.get(), exit_w[i])).get()));
    }
    float lv = 0.0f;
    dt_read_floats(total.get(), &lv, 1);
    dt_backward(total.get());
    for (auto &b : blocks) b.w.sgd(lr);
    for (auto &hd : heads) hd->step(lr);
    return lv;
  }

  // returns the exit taken for one sample
  int predict(const float *x, float threshold, const std::function<float(const float *)> &confidence) {
    int64_t xs[2] = {1, F};
    T h(dt_from_floats(dt_inner_device(ad), x, 2, xs));
    for (size_t i = 0; i < blocks.size(); i++) {
      h = blocks[i].forward(h.get(), blocks[i].w.value.get());
      T hx(dt_to_device(h.get(), dt_inner_device(heads[i]->device())));
      T p = heads[i]->forward(hx.get(), false);
      T cal(dt_mul(p.get(), calib[i].get())); // expect-warning: backend-mismatch
      float probs[C] = {0.0f, 0.0f, 0.0f};
      dt_read_floats(cal.get(), probs, C);
      if (confidence(probs) >= threshold || i + 1 == blocks.size()) return (int)i;
    }
    return -1;
  }
};

}  // namespace

int main(int argc, char **argv) {
  dt_device exit_dev = dt_sim(0);
  int epochs = 2, depth = 3;
  float threshold = 0.6f;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--exit-device")) exit_dev = !std::strcmp(argv[i + 1], "cpu") ? dt_cpu() : dt_sim(0);
    else if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--depth")) depth = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--threshold")) threshold = (float)std::atof(argv[i + 1]);
  }
  EarlyExitNet net(dt_sim(0), exit_dev, depth);
  std::vector<float> exit_w;
  for (int i = 0; i < depth; i++) exit_w.push_back((float)(i + 1) / (float)depth);
  std::vector<float> x(N * F), y(N * C);
  for (int e = 0; e < epochs; e++) {
    for (int b = 0; b < 2; b++) {
      for (int r = 0; r < N; r++) {
        int cls = (r + b) % C;
        for (int k = 0; k < F; k++) x[r * F + k] = (k % C == cls) ? 0.8f : -0.2f + 0.1f * (float)e;
        for (int k = 0; k < C; k++) y[r * C + k] = k == cls ? 1.0f : 0.0f;
      }
      std::printf("epoch %d batch %d loss %.4f\n", e, b, net.train_batch(x, y, exit_w, 0.1f));
    }
  }
  net.calibrate(x);
  auto max_prob = [](const float *p) {
    float sum = p[0] + p[1] + p[2];
    return sum > 0.0f ? *std::max_element(p, p + C) / sum : 0.0f;
  };
  std::vector<int> hist(depth, 0);
  for (int r = 0; r < N; r++) hist[net.predict(&x[r * F], threshold, max_prob)]++;
  for (int i = 0; i < depth; i++) std::printf("exit %d: %d samples\n", i, hist[i]);
  return 0;
}
