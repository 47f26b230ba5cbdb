// provenance: blind round cxx1
// A session object whose mode comes from the environment: TC_MODE=train makes the model
// device autodiff<sim:0>, anything else (or unset) keeps plain sim:0 for inference. Targets
// are cached on dt_inner_device(device) "so they are never tracked" — correct for inference,
// where the inner device is the device itself, but in training the loss then mixes an
// autodiff prediction with a plain target. The analyzer cannot know the environment: warning.
//
// Trigger: `TC_MODE=train ./env_mode_warn` fails with autodiff-expected at dt_mse_loss in
// Session::loss. Unset (or any other value): clean.
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace cfg {

enum class Mode { Inference, Train };

Mode mode_from_env() {
  const char *m = std::getenv("TC_MODE");
  if (m != nullptr && std::strcmp(m, "train") == 0) return Mode::Train;
  return Mode::Inference;
}

dt_device device_for(Mode mode, dt_device base) {
  return mode == Mode::Train ? dt_autodiff(base) : base;
}

}  // namespace cfg

namespace store {

template <typename Key>
class TensorCache {
 public:
  explicit TensorCache(dt_device dev) : dev_(dev) {}
  ~TensorCache() {
    for (auto &kv : items_) dt_free(kv.second);
  }
  TensorCache(const TensorCache &) = delete;
  TensorCache &operator=(const TensorCache &) = delete;

  template <typename Make>
  dt_tensor *get_or_make(const Key &k, Make make) {
    auto it = items_.find(k);
    if (it != items_.end()) return it->second;
    dt_tensor *t = make(dev_);
    items_.emplace(k, t);
    return t;
  }
  size_t size() const { return items_.size(); }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  std::map<Key, dt_tensor *> items_;
};

}  // namespace store

namespace model {

class Linear {
 public:
  Linear(dt_device dev, int64_t in, int64_t out, uint64_t seed, bool trainable) {
    const int64_t shape[] = {in, out};
    w_ = dt_randn(dev, seed, 2, shape);
    if (trainable) w_ = dt_require_grad(w_);
  }
  ~Linear() { dt_free(w_); }
  Linear(const Linear &) = delete;
  Linear &operator=(const Linear &) = delete;
  dt_tensor *operator()(const dt_tensor *x) const { return dt_matmul(x, w_); }
  dt_tensor *weight() const { return w_; }

 private:
  dt_tensor *w_;
};

class Session {
 public:
  Session(cfg::Mode mode, dt_device base)
      : mode_(mode),
        dev_(cfg::device_for(mode, base)),
        l1_(dev_, 3, 5, 1, mode == cfg::Mode::Train),
        l2_(dev_, 5, 1, 2, mode == cfg::Mode::Train),
        targets_(dt_inner_device(dev_)) {}

  dt_tensor *input(int i) const {
    float xs[6];
    for (int k = 0; k < 6; ++k) xs[k] = static_cast<float>((k + i) % 4) * 0.25f;
    const int64_t shape[] = {2, 3};
    return dt_from_floats(dev_, xs, 2, shape);
  }

  dt_tensor *target(int i) {
    return targets_.get_or_make(i % 2, [i](dt_device d) {
      const int64_t shape[] = {2, 1};
      return dt_full(d, i % 2 == 0 ? 0.0f : 1.0f, 2, shape);
    });
  }

  dt_tensor *predict(const dt_tensor *x) const {
    dt_tensor *h = l1_(x);
    dt_tensor *a = dt_sigmoid(h);
    dt_tensor *y = l2_(a);
    dt_free(a);
    dt_free(h);
    return y;
  }

  float loss(int i) {
    dt_tensor *x = input(i);
    dt_tensor *p = predict(x);
    dt_tensor *l = dt_mse_loss(p, target(i)); // expect-warning: autodiff-expected
    float v = 0.0f;
    if (l != nullptr) {
      if (mode_ == cfg::Mode::Train) dt_backward(l);
      dt_read_floats(l, &v, 1);
    }
    dt_free(l);
    dt_free(p);
    dt_free(x);
    return v;
  }

  bool training() const { return mode_ == cfg::Mode::Train; }
  dt_device device() const { return dev_; }
  size_t cached_targets() const { return targets_.size(); }

 private:
  cfg::Mode mode_;
  dt_device dev_;
  Linear l1_, l2_;
  store::TensorCache<int> targets_;
};

}  // namespace model

namespace eval {

struct Metrics {
  float sum = 0.0f;
  float max = 0.0f;
  int count = 0;
  void add(float v) {
    sum += v;
    if (v > max) max = v;
    ++count;
  }
  float mean() const { return count ? sum / static_cast<float>(count) : 0.0f; }
};

// Host-side sanity check of the predictions: the prediction is detached, unwrapped when it
// is tracked, moved to the host and compared against a host threshold.
int count_positive(const model::Session &s, int i) {
  dt_tensor *x = s.input(i);
  dt_tensor *p = s.predict(x);
  dt_tensor *plain = s.training() ? dt_inner(p) : dt_add_scalar(p, 0.0f);
  dt_tensor *host = dt_to_device(plain, dt_cpu());
  const int64_t shape[] = {2, 1};
  dt_tensor *zero = dt_zeros(dt_cpu(), DT_FLOAT, 2, shape);
  dt_tensor *pos = dt_greater(host, zero);
  int64_t flags[2] = {0, 0};
  bool ok = dt_read_ints(pos, flags, 2) == 0;
  dt_free(pos);
  dt_free(zero);
  dt_free(host);
  dt_free(plain);
  dt_free(p);
  dt_free(x);
  return ok ? static_cast<int>(flags[0] + flags[1]) : -1;
}

}  // namespace eval

int main() {
  const cfg::Mode mode = cfg::mode_from_env();
  model::Session s(mode, dt_sim(0));
  char name[32];
  dt_device_name(s.device(), name, sizeof name);
  std::printf("session on %s (%s)\n", name, s.training() ? "train" : "inference");

  std::vector<float> losses;
  eval::Metrics metrics;
  for (int i = 0; i < 4; ++i) {
    losses.push_back(s.loss(i));
    metrics.add(losses.back());
  }
  int positives = 0;
  for (int i = 0; i < 4; ++i) positives += eval::count_positive(s, i);
  std::printf("max loss %.5f, %d positive predictions\n", metrics.max, positives);
  float total = 0.0f;
  for (float l : losses) total += l;
  std::printf("mean loss %.5f, %zu cached targets\n", total / static_cast<float>(losses.size()), s.cached_targets());
  return 0;
}
