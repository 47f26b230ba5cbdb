// Stochastic weight averaging with a process-wide cache of constant tensors.  The trainer
// runs on --device; from epoch --swa-start on, the weights are folded into a running average
// kept on --swa-device (a std::map of plain tensors).  Constants (label-smoothing offsets,
// normalisers) come from a static cache keyed by device *and* shape and value, so the training
// model and the SWA model each get their own copies.
//
//   usage: p06 [--device D] [--swa-device D] [--epochs N] [--swa-start K]   D: cpu|sim0|sim1
// run-args: --device sim0 --swa-device sim1 --epochs 7 --swa-start 3
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace swa {

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using T = std::unique_ptr<dt_tensor, Free>;

std::string dev_name(dt_device d) {
  char b[32];
  dt_device_name(d, b, sizeof b);
  return b;
}

// Constant tensors, created once per (device, value, shape).
const dt_tensor *constant(dt_device d, float value, const std::vector<int64_t> &shape) {
  static std::unordered_map<std::string, T> cache;
  std::string key = dev_name(d) + "|" + std::to_string(value);
  for (int64_t s : shape) key += "x" + std::to_string(s);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second.get();
  T t(dt_full(d, value, int(shape.size()), shape.data()));
  const dt_tensor *raw = t.get();
  cache.emplace(key, std::move(t));
  return raw;
}

struct Layer {
  std::string name;
  T w, b;
};

class Net {
 public:
  Net(dt_device plain, const std::vector<int64_t> &widths) : ad_(dt_autodiff(plain)) {
    for (size_t i = 0; i + 1 < widths.size(); ++i) {
      const int64_t ws[2] = {widths[i], widths[i + 1]}, bs[1] = {widths[i + 1]};
      T r(dt_randn(plain, 900 + i, 2, ws));
      T s(dt_mul_scalar(r.get(), 0.6f / std::sqrt(float(widths[i]))));
      T z(dt_zeros(plain, DT_FLOAT, 1, bs));
      layers_.push_back({"fc" + std::to_string(i), T(dt_require_grad(dt_from_inner(ad_, s.get()))),
                         T(dt_require_grad(dt_from_inner(ad_, z.get())))});
    }
  }

  T forward(const dt_tensor *x) const {
    T h(dt_detach(x));
    for (size_t i = 0; i < layers_.size(); ++i) {
      T z(dt_matmul(h.get(), layers_[i].w.get()));
      T a(dt_add(z.get(), layers_[i].b.get()));
      h = (i + 1 < layers_.size()) ? T(dt_sigmoid(a.get())) : std::move(a);
    }
    return h;
  }

  void step(float lr) {
    for (Layer &l : layers_)
      for (T *p : {&l.w, &l.b}) {
        T g(dt_grad(p->get()));
        if (!g) continue;
        T in(dt_inner(p->get()));
        T st(dt_mul_scalar(g.get(), lr));
        T nw(dt_sub(in.get(), st.get()));
        *p = T(dt_require_grad(dt_from_inner(ad_, nw.get())));
      }
  }

  template <typename F>
  void for_each_param(F &&f) const {
    for (const Layer &l : layers_) {
      f(l.name + ".w", l.w.get());
      f(l.name + ".b", l.b.get());
    }
  }

  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  std::vector<Layer> layers_;
};

class Averager {
 public:
  explicit Averager(dt_device plain) : dev_(plain) {}

  void fold(const Net &net) {
    ++n_;
    net.for_each_param([this](const std::string &name, const dt_tensor *p) {
      T in(dt_inner(p));
      T here(dt_to_device(in.get(), dev_));
      auto it = avg_.find(name);
      if (it == avg_.end()) {
        avg_.emplace(name, std::move(here));
        return;
      }
      // avg += (p - avg) / n
      T d(dt_sub(here.get(), it->second.get()));
      T ds(dt_mul_scalar(d.get(), 1.0f / float(n_)));
      it->second = T(dt_add(it->second.get(), ds.get()));
    });
  }

  // Plain forward with the averaged weights, on the averager's device.
  T predict(const std::vector<float> &x, int64_t rows, int64_t in) const {
    const int64_t xs[2] = {rows, in};
    T h(dt_from_floats(dev_, x.data(), 2, xs));
    for (int i = 0;; ++i) {
      auto w = avg_.find("fc" + std::to_string(i) + ".w");
      auto b = avg_.find("fc" + std::to_string(i) + ".b");
      if (w == avg_.end() || b == avg_.end()) break;
      T z(dt_matmul(h.get(), w->second.get()));
      T a(dt_add(z.get(), b->second.get()));
      bool last = avg_.find("fc" + std::to_string(i + 1) + ".w") == avg_.end();
      h = last ? std::move(a) : T(dt_sigmoid(a.get()));
    }
    return h;
  }

  int count() const { return n_; }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  int n_ = 0;
  std::map<std::string, T> avg_;
};

}  // namespace swa

static dt_device parse(const char *s) {
  if (!std::strcmp(s, "sim0")) return dt_sim(0);
  if (!std::strcmp(s, "sim1")) return dt_sim(1);
  return dt_cpu();
}

int main(int argc, char **argv) {
  using namespace swa;
  dt_device dev = dt_sim(0), swa_dev = dt_cpu();
  int epochs = 6, swa_start = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device")) dev = parse(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--swa-device")) swa_dev = parse(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--swa-start")) swa_start = std::atoi(argv[i + 1]);
  }

  const int64_t IN = 4, OUT = 3, R = 6;
  const float smooth = 0.1f;
  Net net(dev, {IN, 9, OUT});
  Averager avg(swa_dev);

  auto make = [&](int k, std::vector<float> &x, std::vector<float> &y) {
    x.resize(size_t(R * IN));
    y.assign(size_t(R * OUT), 0.0f);
    for (int64_t r = 0; r < R; ++r) {
      float best = -1e9f;
      int64_t cls = 0;
      for (int64_t c = 0; c < IN; ++c) {
        float v = std::sin(0.37f * float(k * R + r) * float(c + 1));
        x[size_t(r * IN + c)] = v;
        if (c < OUT && v > best) best = v, cls = c;
      }
      y[size_t(r * OUT + cls)] = 1.0f;
    }
  };

  std::vector<float> x, y;
  for (int e = 0; e < epochs; ++e) {
    float tot = 0.0f;
    for (int s = 0; s < 6; ++s) {
      make(e * 6 + s, x, y);
      const int64_t xs[2] = {R, IN}, ys[2] = {R, OUT};
      T xt(dt_from_floats(net.device(), x.data(), 2, xs));
      T yraw(dt_from_floats(dt_inner_device(net.device()), y.data(), 2, ys));
      T ys1(dt_mul_scalar(yraw.get(), 1.0f - smooth));
      T ysm(dt_add(ys1.get(), constant(dt_device_of(ys1.get()), smooth / float(OUT), {R, OUT})));
      T yt(dt_from_inner(net.device(), ysm.get()));
      T out = net.forward(xt.get());
      T loss(dt_mse_loss(out.get(), yt.get()));
      T li(dt_inner(loss.get()));
      float lv = 0.0f;
      dt_read_floats(li.get(), &lv, 1);
      tot += lv;
      dt_backward(loss.get());
      net.step(0.5f);
    }
    if (e >= swa_start) avg.fold(net);
    std::printf("epoch %d loss %.4f (swa over %d)\n", e, tot / 6.0f, avg.count());
  }

  if (avg.count() > 0) {
    make(4242, x, y);
    T pred = avg.predict(x, R, IN);
    const int64_t ys[2] = {R, OUT};
    T yt(dt_from_floats(avg.device(), y.data(), 2, ys));
    T ys1(dt_mul_scalar(yt.get(), 1.0f - smooth));
    T ysm(dt_add(ys1.get(), constant(avg.device(), smooth / float(OUT), {R, OUT})));
    T l(dt_mse_loss(pred.get(), ysm.get()));
    float lv = 0.0f;
    dt_read_floats(l.get(), &lv, 1);
    std::printf("swa model on %s: loss %.4f\n", dev_name(avg.device()).c_str(), lv);
  }
  return 0;
}
