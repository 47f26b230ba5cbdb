// provenance: blind round d16
// p14: data-parallel training over two replicas (autodiff<sim:0>, autodiff<sim:1>) that share
// one std::shared_ptr<ConstantCache>: a single map holds constants for both devices, keyed by
// device name and constant name. Gradients are all-reduced on sim:0 (each gathered there,
// summed, averaged) and the average is scattered back to every replica, which updates its own
// copy. Replicas live in a std::array and are updated through references in range-for loops.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct Del {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Own = std::unique_ptr<dt_tensor, Del>;

static std::string device_key(dt_device d) {
  char buf[48];
  dt_device_name(d, buf, sizeof buf);
  return buf;
}

// Constants (not trained) shared by every replica; each device gets its own copy.
class ConstantCache {
 public:
  using Factory = std::function<dt_tensor *(dt_device)>;

  const dt_tensor *get(dt_device d, const std::string &name, const Factory &make) {
    auto key = std::make_pair(device_key(d), name);
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      it = entries_.emplace(key, Own(make(d))).first;
      ++misses_;
    }
    return it->second.get();
  }
  size_t size() const { return entries_.size(); }
  int misses() const { return misses_; }

 private:
  std::map<std::pair<std::string, std::string>, Own> entries_;
  int misses_ = 0;
};

constexpr int64_t kIn = 3, kOut = 2, kRows = 4;

struct Replica {
  dt_device ad;
  Own w, b;
  std::shared_ptr<ConstantCache> cache;

  Replica(dt_device d, std::shared_ptr<ConstantCache> c) : ad(d), cache(std::move(c)) {
    const int64_t sw[2] = {kIn, kOut}, sb[1] = {kOut};
    Own w0(dt_randn(d, 2024, 2, sw));  // same seed: replicas start identical
    w = Own(dt_require_grad(dt_mul_scalar(w0.get(), 0.5f)));
    b = Own(dt_require_grad(dt_zeros(d, DT_FLOAT, 1, sb)));
  }

  dt_device inner() const { return dt_inner_device(ad); }

  Own forward(const dt_tensor *x) {
    const dt_tensor *shift = cache->get(ad, "shift", [](dt_device d) {
      const int64_t s[1] = {kOut};
      return dt_full(d, 0.1f, 1, s);
    });
    Own z(dt_matmul(x, w.get()));
    Own zb(dt_add(z.get(), b.get()));
    return Own(dt_add(zb.get(), shift));
  }

  // Loss on this replica's shard; leaves gradients on w and b.
  float backward_on(const std::vector<float> &xs, const std::vector<float> &ys) {
    const int64_t sx[2] = {kRows, kIn}, sy[2] = {kRows, kOut};
    Own xi(dt_from_floats(inner(), xs.data(), 2, sx));
    Own yi(dt_from_floats(inner(), ys.data(), 2, sy));
    Own x(dt_from_inner(ad, xi.get()));
    Own y(dt_from_inner(ad, yi.get()));
    Own pred = forward(x.get());
    Own loss(dt_mse_loss(pred.get(), y.get()));
    dt_backward(loss.get());
    float v = 0.0f;
    dt_read_floats(loss.get(), &v, 1);
    return v;
  }

  void apply(Own &param, const dt_tensor *avg_grad, float lr) {
    Own in(dt_inner(param.get()));
    Own d(dt_mul_scalar(avg_grad, lr));
    Own next(dt_sub(in.get(), d.get()));
    param = Own(dt_require_grad(dt_from_inner(ad, next.get())));
  }
};

using Replicas = std::array<Replica, 2>;

// Averages one gradient over the replicas on `root` and returns one copy per replica,
// each on that replica's inner device.
static std::vector<Own> all_reduce(Replicas &reps, Own Replica::*which, dt_device root) {
  Own sum;
  for (auto &r : reps) {
    Own g(dt_grad((r.*which).get()));
    Own at_root(dt_to_device(g.get(), root));
    if (!sum) {
      sum = std::move(at_root);
    } else {
      sum = Own(dt_add(sum.get(), at_root.get()));
    }
  }
  Own avg(dt_mul_scalar(sum.get(), 1.0f / (float)reps.size()));
  std::vector<Own> out;
  for (const auto &r : reps) out.emplace_back(dt_to_device(avg.get(), r.inner()));
  return out;
}

static void shard(int step, int rank, std::vector<float> &xs, std::vector<float> &ys) {
  xs.resize((size_t)(kRows * kIn));
  ys.resize((size_t)(kRows * kOut));
  for (int64_t r = 0; r < kRows; r++) {
    float a = 0.0f;
    for (int64_t c = 0; c < kIn; c++) {
      float v = (float)((step * 13 + rank * 29 + r * 5 + c * 3) % 11) / 11.0f - 0.5f;
      xs[(size_t)(r * kIn + c)] = v;
      a += v;
    }
    ys[(size_t)(r * kOut)] = a;
    ys[(size_t)(r * kOut + 1)] = -0.5f * a;
  }
}

static float max_divergence(const Replicas &reps) {
  std::vector<float> a((size_t)(kIn * kOut)), b(a.size());
  Own w0(dt_inner(reps[0].w.get()));
  Own w1(dt_inner(reps[1].w.get()));
  dt_read_floats(w0.get(), a.data(), (int64_t)a.size());
  dt_read_floats(w1.get(), b.data(), (int64_t)b.size());
  float m = 0.0f;
  for (size_t i = 0; i < a.size(); i++) {
    float d = a[i] - b[i];
    m = d > m ? d : (-d > m ? -d : m);
  }
  return m;
}

int main() {
  auto cache = std::make_shared<ConstantCache>();
  Replicas reps{Replica(dt_autodiff(dt_sim(0)), cache), Replica(dt_autodiff(dt_sim(1)), cache)};
  const dt_device root = dt_sim(0);
  const float lr = 0.1f;

  std::vector<float> losses;
  for (int step = 0; step < 5; step++) {
    float total = 0.0f;
    int rank = 0;
    for (auto &r : reps) {
      std::vector<float> xs, ys;
      shard(step, rank++, xs, ys);
      total += r.backward_on(xs, ys);
    }
    std::vector<Own> gw = all_reduce(reps, &Replica::w, root);
    std::vector<Own> gb = all_reduce(reps, &Replica::b, root);
    size_t i = 0;
    for (auto &r : reps) {
      r.apply(r.w, gw[i].get(), lr);
      r.apply(r.b, gb[i].get(), lr);
      ++i;
    }
    losses.push_back(total / (float)reps.size());
  }
  std::printf("loss %.4f -> %.4f, replica divergence %.2e, %zu cached constants (%d built)\n",
              losses.front(), losses.back(), max_divergence(reps), cache->size(), cache->misses());
  return 0;
}
