// Synchronous data-parallel training over N replicas spread round-robin over the two
// simulated accelerators (replica r on autodiff<sim:(r % 2)>).  Each step, every replica
// back-propagates its shard; gradients are reduced onto the root replica's device, averaged,
// broadcast back to every replica and applied, so all replicas stay identical.
//
//   usage: p07 [REPLICAS>=2] [STEPS] [SHARD_ROWS]
// run-args: 3 6 4
#include <dt/dt.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using T = std::unique_ptr<dt_tensor, Free>;
using Grads = std::vector<T>;

constexpr int64_t kIn = 5, kHid = 6, kOut = 2;

class Replica {
 public:
  Replica(int rank, dt_device plain, const std::array<std::vector<float>, 4> &init)
      : rank_(rank), plain_(plain), ad_(dt_autodiff(plain)) {
    const std::array<std::vector<int64_t>, 4> shapes = {
        std::vector<int64_t>{kIn, kHid}, {kHid}, {kHid, kOut}, {kOut}};
    for (size_t i = 0; i < 4; ++i) {
      shapes_[i] = shapes[i];
      T t(dt_from_floats(plain, init[i].data(), int(shapes[i].size()), shapes[i].data()));
      p_[i] = T(dt_require_grad(dt_from_inner(ad_, t.get())));
    }
  }

  float backward_on(const std::vector<float> &x, const std::vector<float> &y, int64_t rows) {
    const int64_t xs[2] = {rows, kIn}, ys[2] = {rows, kOut};
    T xt(dt_from_floats(ad_, x.data(), 2, xs));
    T yt(dt_from_floats(ad_, y.data(), 2, ys));
    T z(dt_matmul(xt.get(), p_[0].get()));
    T a(dt_add(z.get(), p_[1].get()));
    T h(dt_tanh(a.get()));
    T z2(dt_matmul(h.get(), p_[2].get()));
    T o(dt_add(z2.get(), p_[3].get()));
    T loss(dt_mse_loss(o.get(), yt.get()));
    T li(dt_inner(loss.get()));
    float lv = 0.0f;
    dt_read_floats(li.get(), &lv, 1);
    dt_backward(loss.get());
    return lv;
  }

  Grads grads() const {
    Grads g;
    for (const T &p : p_) g.emplace_back(dt_grad(p.get()));
    return g;
  }

  void apply(const Grads &avg, float lr) {
    for (size_t i = 0; i < p_.size(); ++i) {
      if (!avg[i]) continue;
      T in(dt_inner(p_[i].get()));
      T st(dt_mul_scalar(avg[i].get(), lr));
      T nw(dt_sub(in.get(), st.get())); // expect-error: device-mismatch
      p_[i] = T(dt_require_grad(dt_from_inner(ad_, nw.get())));
    }
  }

  float checksum() const {
    float s = 0.0f;
    for (const T &p : p_) {
      T in(dt_inner(p.get()));
      T sm(dt_sum(in.get()));
      float v = 0.0f;
      dt_read_floats(sm.get(), &v, 1);
      s += v;
    }
    return s;
  }

  int rank() const { return rank_; }
  dt_device plain() const { return plain_; }

 private:
  int rank_;
  dt_device plain_, ad_;
  std::array<T, 4> p_;
  std::array<std::vector<int64_t>, 4> shapes_;
};

class DataParallel {
 public:
  explicit DataParallel(int n) {
    std::array<std::vector<float>, 4> init;
    const size_t sizes[4] = {size_t(kIn * kHid), size_t(kHid), size_t(kHid * kOut), size_t(kOut)};
    for (size_t i = 0; i < 4; ++i) {
      init[i].resize(sizes[i]);
      for (size_t k = 0; k < sizes[i]; ++k)
        init[i][k] = (i % 2 == 0) ? 0.4f * std::sin(float(k * 7 + i)) : 0.0f;
    }
    for (int r = 0; r < n; ++r) reps_.push_back(std::make_unique<Replica>(r, dt_sim(r % 2), init));
  }

  // Sum every replica's gradients on the root's device, then divide by N.
  Grads reduce_to_root() {
    const dt_device root = reps_[0]->plain();
    Grads acc;
    for (auto &rep : reps_) {
      Grads g = rep->grads();
      for (size_t i = 0; i < g.size(); ++i) {
        if (!g[i]) continue;
        T here(dt_to_device(g[i].get(), root));
        if (acc.size() <= i) acc.resize(i + 1);
        acc[i] = acc[i] ? T(dt_add(acc[i].get(), here.get())) : std::move(here);
      }
    }
    for (T &a : acc)
      if (a) a = T(dt_mul_scalar(a.get(), 1.0f / float(reps_.size())));
    return acc;
  }

  float step(int k, int64_t rows, float lr) {
    float tot = 0.0f;
    for (auto &rep : reps_) {
      std::vector<float> x(size_t(rows * kIn)), y(size_t(rows * kOut));
      for (int64_t r = 0; r < rows; ++r) {
        int64_t row = (int64_t(k) * int64_t(reps_.size()) + rep->rank()) * rows + r;
        float s = 0.0f;
        for (int64_t c = 0; c < kIn; ++c) {
          x[size_t(r * kIn + c)] = std::cos(0.19f * float(row) + 0.5f * float(c));
          s += x[size_t(r * kIn + c)];
        }
        y[size_t(r * kOut)] = std::tanh(s);
        y[size_t(r * kOut + 1)] = 0.1f * s;
      }
      tot += rep->backward_on(x, y, rows);
    }
    Grads avg = reduce_to_root();
    std::vector<Grads> per_replica(reps_.size());
    for (size_t r = 0; r < reps_.size(); ++r)
      for (const T &g : avg) per_replica[r].emplace_back(g ? dt_to_device(g.get(), reps_[r]->plain()) : nullptr);
    for (size_t r = 0; r < reps_.size(); ++r) reps_[r]->apply(avg, lr);
    return tot / float(reps_.size());
  }

  void report() const {
    for (const auto &rep : reps_) {
      char b[32];
      dt_device_name(rep->plain(), b, sizeof b);
      std::printf("  replica %d on %s checksum %.6f\n", rep->rank(), b, rep->checksum());
    }
  }

 private:
  std::vector<std::unique_ptr<Replica>> reps_;
};

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 2;
  int steps = argc > 2 ? std::atoi(argv[2]) : 5;
  int64_t rows = argc > 3 ? std::atoll(argv[3]) : 4;
  if (n < 2) n = 2;
  if (rows < 1) rows = 1;

  DataParallel dp(n);
  for (int k = 0; k < steps; ++k) {
    float l = dp.step(k, rows, 0.1f);
    std::printf("step %d mean loss %.5f\n", k, l);
  }
  dp.report();
  return 0;
}
