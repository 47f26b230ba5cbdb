// provenance: blind round d16
// p10: linear regression trained with hand-written gradients on plain sim:0 tensors. A
// prefetching loader keeps a std::deque of ready batches; it normalises each batch on the
// staging device with per-device statistics from a cache, and the staging device can be
// redirected to sim:1 with PREFETCH_DEVICE=sim1 (to overlap copies with compute). The
// trainer consumes batches as they come out of the queue.
// run-env: PREFETCH_DEVICE=sim1
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

constexpr int64_t kRows = 6;
constexpr int64_t kFeat = 3;

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *t) : t_(t) {}
  Tensor(Tensor &&o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  Tensor &operator=(Tensor &&o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;
  ~Tensor() { dt_free(t_); }
  dt_tensor *get() const { return t_; }

 private:
  dt_tensor *t_ = nullptr;
};

struct Batch {
  Tensor x;  // [kRows, kFeat]
  Tensor y;  // [kRows, 1]
  int index = 0;
};

dt_device staging_from_env(dt_device compute) {
  const char *v = std::getenv("PREFETCH_DEVICE");
  if (v && std::strcmp(v, "sim1") == 0) return dt_sim(1);
  return compute;
}

// Per-device feature statistics (shift and scale), created on first use on each device.
class StatsCache {
 public:
  StatsCache(std::vector<float> shift, std::vector<float> scale)
      : shift_(std::move(shift)), scale_(std::move(scale)) {}

  const std::pair<Tensor, Tensor> &on(dt_device d) {
    const int key = (int)d.backend * 16 + d.ordinal;
    auto it = by_device_.find(key);
    if (it == by_device_.end()) {
      const int64_t shape[1] = {kFeat};
      std::pair<Tensor, Tensor> st{Tensor(dt_from_floats(d, shift_.data(), 1, shape)),
                                   Tensor(dt_from_floats(d, scale_.data(), 1, shape))};
      it = by_device_.emplace(key, std::move(st)).first;
    }
    return it->second;
  }

 private:
  std::vector<float> shift_, scale_;
  std::unordered_map<int, std::pair<Tensor, Tensor>> by_device_;
};

class PrefetchLoader {
 public:
  using Transform = std::function<Tensor(const Tensor &, dt_device)>;

  PrefetchLoader(dt_device staging, int total, size_t depth, Transform tf)
      : staging_(staging), total_(total), depth_(depth), transform_(std::move(tf)) {}

  bool empty() const { return queue_.empty() && produced_ >= total_; }

  Batch pop() {
    refill();
    Batch b = std::move(queue_.front());
    queue_.pop_front();
    return b;
  }

 private:
  void refill() {
    while (queue_.size() < depth_ && produced_ < total_) queue_.push_back(make(produced_++));
  }

  Batch make(int i) {
    std::vector<float> x((size_t)(kRows * kFeat)), y((size_t)kRows);
    for (int64_t r = 0; r < kRows; r++) {
      float t = 0.0f;
      for (int64_t c = 0; c < kFeat; c++) {
        float v = (float)((i * 5 + r * 3 + c * 2) % 8);
        x[(size_t)(r * kFeat + c)] = v;
        t += (c == 0 ? 0.5f : c == 1 ? -0.25f : 0.125f) * (v - 3.5f) / 2.0f;
      }
      y[(size_t)r] = t + 0.3f;
    }
    const int64_t xs[2] = {kRows, kFeat}, ys[2] = {kRows, 1};
    Tensor xh(dt_from_floats(dt_cpu(), x.data(), 2, xs));
    Tensor yh(dt_from_floats(dt_cpu(), y.data(), 2, ys));
    Tensor xd(dt_to_device(xh.get(), staging_));
    Batch b;
    b.x = transform_(xd, staging_);
    b.y = Tensor(dt_to_device(yh.get(), staging_));
    b.index = i;
    return b;
  }

  dt_device staging_;
  int total_;
  size_t depth_;
  Transform transform_;
  int produced_ = 0;
  std::deque<Batch> queue_;
};

class LinearRegression {
 public:
  explicit LinearRegression(dt_device d) : dev_(d) {
    const int64_t ws[2] = {kFeat, 1}, bs[1] = {1};
    w_ = Tensor(dt_zeros(d, DT_FLOAT, 2, ws));
    b_ = Tensor(dt_zeros(d, DT_FLOAT, 1, bs));
  }

  // One step of gradient descent on the mean squared error; returns the loss.
  float step(const Batch &b, float lr) {
    Tensor xw(dt_matmul(b.x.get(), w_.get())); // expect-warning: device-mismatch
    Tensor pred(dt_add(xw.get(), b_.get()));
    Tensor err(dt_sub(pred.get(), b.y.get()));
    Tensor xt(dt_transpose(b.x.get()));
    Tensor gw(dt_matmul(xt.get(), err.get()));
    Tensor gws(dt_mul_scalar(gw.get(), 2.0f * lr / (float)kRows));
    Tensor gb(dt_sum_dim(err.get(), 0));
    Tensor gbs(dt_mul_scalar(gb.get(), 2.0f * lr / (float)kRows));
    w_ = Tensor(dt_sub(w_.get(), gws.get()));
    b_ = Tensor(dt_sub(b_.get(), gbs.get()));
    Tensor sq(dt_mul(err.get(), err.get()));
    Tensor loss(dt_mean(sq.get()));
    float v = 0.0f;
    dt_read_floats(loss.get(), &v, 1);
    return v;
  }

  std::vector<float> weights() const {
    std::vector<float> out((size_t)kFeat + 1);
    dt_read_floats(w_.get(), out.data(), kFeat);
    dt_read_floats(b_.get(), out.data() + kFeat, 1);
    return out;
  }

  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  Tensor w_, b_;
};

}  // namespace

int main() {
  const dt_device compute = dt_sim(0);
  const dt_device staging = staging_from_env(compute);

  StatsCache stats({3.5f, 3.5f, 3.5f}, {0.5f, 0.5f, 0.5f});
  auto normalise = [&stats](const Tensor &x, dt_device d) {
    const auto &st = stats.on(d);
    Tensor centred(dt_sub(x.get(), st.first.get()));
    return Tensor(dt_mul(centred.get(), st.second.get()));
  };

  LinearRegression model(compute);
  float last = 0.0f;
  for (int epoch = 0; epoch < 3; epoch++) {
    PrefetchLoader loader(staging, 5, 2, normalise);
    float sum = 0.0f;
    int n = 0;
    while (!loader.empty()) {
      Batch b = loader.pop();
      sum += model.step(b, 0.1f);
      n++;
    }
    last = n ? sum / (float)n : 0.0f;
    std::printf("epoch %d mean loss %.5f\n", epoch, last);
  }
  auto w = model.weights();
  std::printf("w = [%.3f %.3f %.3f] b = %.3f\n", w[0], w[1], w[2], w[3]);
  return 0;
}
