// p08_replica_allreduce_clean.cpp — data-parallel training over a std::vector<Replica>, one per
// entry of a device table (autodiff<sim:0>, autodiff<sim:1>). Replica objects own their
// parameters through a small RAII handle; a function template for_each_replica runs a lambda
// over them; the all-reduce gathers every gradient onto the root replica's inner device with
// dt_to_device, averages there, and scatters the average back to each replica's own inner
// device before each replica's SGD step. A checkpoint of the root replica goes to the host.
// Tricky but correct: gradients from several devices meet in one accumulator only after the
// move; each replica's std::map of parameters is walked by reference.
#include <dt/dt.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int64_t kIn = 4, kOut = 2, kBatch = 6;

class Handle {
 public:
  Handle() = default;
  explicit Handle(dt_tensor *t) : t_(t) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  Handle &operator=(Handle &&o) noexcept {
    if (this != &o) {
      dt_free(t_);
      t_ = std::exchange(o.t_, nullptr);
    }
    return *this;
  }
  ~Handle() { dt_free(t_); }
  dt_tensor *get() const { return t_; }
  void reset(dt_tensor *t) {
    dt_free(t_);
    t_ = t;
  }

 private:
  dt_tensor *t_ = nullptr;
};

dt_tensor *trainable_on(dt_device ad, const dt_tensor *plain) {
  dt_tensor *moved = dt_to_device(plain, dt_inner_device(ad));
  dt_tensor *leaf = dt_require_grad(dt_from_inner(ad, moved));
  dt_free(moved);
  return leaf;
}

struct Replica {
  dt_device dev;
  std::map<std::string, Handle> params;
  std::map<std::string, Handle> grads;
  Handle x, y;
  float loss = 0.0f;

  Replica(dt_device ad, const std::map<std::string, dt_tensor *> &init, int shard) : dev(ad) {
    for (const auto &kv : init)
      params.emplace(kv.first, Handle(trainable_on(dev, kv.second)));
    std::vector<float> xs(kBatch * kIn), ys(kBatch * kOut);
    for (int64_t i = 0; i < kBatch; i++) {
      for (int64_t j = 0; j < kIn; j++)
        xs[i * kIn + j] = static_cast<float>((shard * 5 + i + j) % 4) * 0.5f - 0.75f;
      for (int64_t k = 0; k < kOut; k++)
        ys[i * kOut + k] = xs[i * kIn + k] - xs[i * kIn + k + 2];
    }
    const int64_t xs_shape[2] = {kBatch, kIn}, ys_shape[2] = {kBatch, kOut};
    dt_tensor *xp = dt_from_floats(dt_inner_device(dev), xs.data(), 2, xs_shape);
    dt_tensor *yp = dt_from_floats(dt_inner_device(dev), ys.data(), 2, ys_shape);
    x.reset(dt_from_inner(dev, xp));
    y.reset(dt_from_inner(dev, yp));
    dt_free(xp);
    dt_free(yp);
  }

  void forward_backward() {
    dt_tensor *z = dt_matmul(x.get(), params.at("w").get());
    dt_tensor *pred = dt_add(z, params.at("b").get());
    dt_tensor *l = dt_mse_loss(pred, y.get());
    dt_backward(l);
    dt_read_floats(l, &loss, 1);
    for (auto &kv : params)
      grads[kv.first].reset(dt_grad(kv.second.get()));
    for (dt_tensor *t : {z, pred, l})
      dt_free(t);
  }

  void sgd(float lr) {
    for (auto &kv : params) {
      dt_tensor *inner = dt_inner(kv.second.get());
      dt_tensor *delta = dt_mul_scalar(grads.at(kv.first).get(), lr);
      dt_tensor *next = dt_sub(inner, delta);
      kv.second.reset(dt_require_grad(dt_from_inner(dev, next)));
      for (dt_tensor *t : {inner, delta, next})
        dt_free(t);
    }
  }
};

template <typename Fn>
void for_each_replica(std::vector<Replica> &reps, Fn &&fn) {
  for (auto &r : reps)
    fn(r);
}

void allreduce(std::vector<Replica> &reps) {
  const dt_device root = dt_inner_device(reps.front().dev);
  const float inv = 1.0f / static_cast<float>(reps.size());
  for (const auto &kv : reps.front().grads) {
    const std::string &name = kv.first;
    dt_tensor *sum = nullptr;
    for (auto &r : reps) {
      dt_tensor *g = dt_to_device(r.grads.at(name).get(), root);
      if (!sum) {
        sum = g;
        continue;
      }
      dt_tensor *s2 = dt_add(sum, g);
      dt_free(sum);
      dt_free(g);
      sum = s2;
    }
    dt_tensor *avg = dt_mul_scalar(sum, inv);
    for_each_replica(reps, [&](Replica &r) {
      r.grads.at(name).reset(dt_to_device(avg, dt_inner_device(r.dev)));
    });
    dt_free(sum);
    dt_free(avg);
  }
}

}  // namespace

int main() {
  const std::array<dt_device, 2> table = {dt_autodiff(dt_sim(0)), dt_autodiff(dt_sim(1))};
  const int64_t wshape[2] = {kIn, kOut}, bshape[1] = {kOut};
  std::map<std::string, dt_tensor *> init = {
      {"w", dt_randn(dt_cpu(), 5, 2, wshape)},
      {"b", dt_zeros(dt_cpu(), DT_FLOAT, 1, bshape)},
  };

  std::vector<Replica> reps;
  reps.reserve(table.size());
  int shard = 0;
  for (const dt_device &d : table)
    reps.emplace_back(d, init, shard++);
  for (auto &kv : init)
    dt_free(kv.second);

  for (int step = 0; step < 4; step++) {
    for_each_replica(reps, [](Replica &r) { r.forward_backward(); });
    allreduce(reps);
    float mean = 0.0f;
    for_each_replica(reps, [&mean, n = reps.size()](Replica &r) {
      r.sgd(0.1f);
      mean += r.loss / static_cast<float>(n);
    });
    std::printf("step %d: mean loss %.5f\n", step, mean);
  }

  std::vector<float> host(kIn * kOut);
  dt_tensor *inner = dt_inner(reps.front().params.at("w").get());
  dt_tensor *on_cpu = dt_to_device(inner, dt_cpu());
  if (dt_read_floats(on_cpu, host.data(), static_cast<int64_t>(host.size())) == 0)
    std::printf("checkpoint w[0] = %.4f, max %.4f\n", host[0],
                *std::max_element(host.begin(), host.end()));
  dt_free(inner);
  dt_free(on_cpu);
  return 0;
}
