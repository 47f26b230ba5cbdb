// Two-stage pipeline parallelism with templated stages and optimizer policies.  Each stage
// owns its parameters and its optimizer state on its own device (stage devices from argv,
// possibly equal); activations cross between stages forward, gradients cross back through the
// autodiff transfer.  The no-grad evaluation hands plain activations between the stages too.
//
//   usage: p04 DEV0 DEV1 [EPOCHS] [MICRO] [sgd|momentum]     DEV: cpu|sim0|sim1
// run-args: sim1 sim0 4 3 momentum
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

static dt_device pick(const char *s) {
  std::string n = s ? s : "";
  if (n == "sim0") return dt_sim(0);
  if (n == "sim1") return dt_sim(1);
  return dt_cpu();
}

struct PlainSgd {
  explicit PlainSgd(dt_device) {}
  T update(size_t, const dt_tensor *w, const dt_tensor *g, float lr) {
    T st(dt_mul_scalar(g, lr));
    return T(dt_sub(w, st.get()));
  }
  void to(dt_device) {}
};

struct Momentum {
  explicit Momentum(dt_device plain) : dev(plain) {}
  T update(size_t i, const dt_tensor *w, const dt_tensor *g, float lr) {
    if (vel.size() <= i) vel.resize(i + 1);
    if (!vel[i]) {
      vel[i] = T(dt_mul_scalar(g, 1.0f));
    } else {
      T d(dt_mul_scalar(vel[i].get(), 0.8f));
      vel[i] = T(dt_add(d.get(), g));
    }
    T st(dt_mul_scalar(vel[i].get(), lr));
    return T(dt_sub(w, st.get()));
  }
  void to(dt_device plain) {
    for (T &v : vel)
      if (v) v = T(dt_to_device(v.get(), plain));
    dev = plain;
  }
  dt_device dev;
  std::vector<T> vel;
};

template <typename Opt>
class Stage {
 public:
  Stage(dt_device plain, int64_t in, int64_t out, uint64_t seed, bool act)
      : ad_(dt_autodiff(plain)), opt_(plain), act_(act) {
    const int64_t ws[2] = {in, out}, bs[1] = {out};
    T r(dt_randn(plain, seed, 2, ws));
    T s(dt_mul_scalar(r.get(), 1.0f / std::sqrt(float(in))));
    T z(dt_zeros(plain, DT_FLOAT, 1, bs));
    params_[0] = T(dt_require_grad(dt_from_inner(ad_, s.get())));
    params_[1] = T(dt_require_grad(dt_from_inner(ad_, z.get())));
  }

  dt_device device() const { return ad_; }

  T forward(const dt_tensor *x) const {
    T z(dt_matmul(x, params_[0].get()));
    T a(dt_add(z.get(), params_[1].get()));
    return act_ ? T(dt_tanh(a.get())) : std::move(a);
  }

  T forward_plain(const dt_tensor *x) const {
    T w(dt_inner(params_[0].get())), b(dt_inner(params_[1].get()));
    T z(dt_matmul(x, w.get()));
    T a(dt_add(z.get(), b.get()));
    return act_ ? T(dt_tanh(a.get())) : std::move(a);
  }

  void step(float lr) {
    for (size_t i = 0; i < params_.size(); ++i) {
      T g(dt_grad(params_[i].get()));
      if (!g) continue;
      T w(dt_inner(params_[i].get()));
      T nw = opt_.update(i, w.get(), g.get(), lr);
      params_[i] = T(dt_require_grad(dt_from_inner(ad_, nw.get())));
    }
  }

 private:
  dt_device ad_;
  Opt opt_;
  bool act_;
  std::array<T, 2> params_;
};

template <typename Opt>
class Pipeline {
 public:
  Pipeline(dt_device d0, dt_device d1, int64_t in, int64_t hid, int64_t out)
      : s0_(d0, in, hid, 11, true), s1_(d1, hid, out, 12, false) {}

  T forward(const dt_tensor *x) {
    T h = s0_.forward(x);
    T moved(dt_to_device(h.get(), s1_.device()));
    return s1_.forward(moved.get());
  }

  T eval(const std::vector<float> &x, int64_t rows, int64_t in) {
    const int64_t xs[2] = {rows, in};
    T xt(dt_from_floats(dt_inner_device(s0_.device()), x.data(), 2, xs));
    T h = s0_.forward_plain(xt.get());
    T hm(dt_to_device(h.get(), dt_inner_device(s1_.device())));
    return s1_.forward_plain(hm.get());
  }

  void step(float lr) {
    s0_.step(lr);
    s1_.step(lr);
  }

  dt_device input_device() const { return s0_.device(); }
  dt_device output_device() const { return s1_.device(); }

 private:
  Stage<Opt> s0_;
  Stage<Opt> s1_;
};

template <typename Opt>
int run(dt_device d0, dt_device d1, int epochs, int micro) {
  const int64_t IN = 4, HID = 10, OUT = 2, R = 5;
  Pipeline<Opt> pipe(d0, d1, IN, HID, OUT);
  auto batch = [&](int k, std::vector<float> &x, std::vector<float> &y) {
    x.assign(size_t(R * IN), 0.0f);
    y.assign(size_t(R * OUT), 0.0f);
    for (int64_t r = 0; r < R; ++r) {
      for (int64_t c = 0; c < IN; ++c) x[size_t(r * IN + c)] = std::cos(0.2f * float(k * R + r) + float(c));
      y[size_t(r * OUT)] = x[size_t(r * IN)] - x[size_t(r * IN + 1)];
      y[size_t(r * OUT + 1)] = 0.5f * x[size_t(r * IN + 2)];
    }
  };

  std::vector<float> x, y;
  for (int e = 0; e < epochs; ++e) {
    float tot = 0.0f;
    for (int m = 0; m < micro; ++m) {
      batch(e * micro + m, x, y);
      const int64_t xs[2] = {R, IN}, ys[2] = {R, OUT};
      T xt(dt_from_floats(pipe.input_device(), x.data(), 2, xs));
      T yt(dt_from_floats(pipe.output_device(), y.data(), 2, ys));
      T out = pipe.forward(xt.get());
      T loss(dt_mse_loss(out.get(), yt.get()));
      T li(dt_inner(loss.get()));
      float lv = 0.0f;
      dt_read_floats(li.get(), &lv, 1);
      tot += lv;
      if (dt_backward(loss.get()) != 0) return 1;
      pipe.step(0.05f);
    }
    batch(777, x, y);
    T pred = pipe.eval(x, R, IN);
    const int64_t ys[2] = {R, OUT};
    T yt(dt_from_floats(dt_device_of(pred.get()), y.data(), 2, ys));
    T el(dt_mse_loss(pred.get(), yt.get()));
    float ev = 0.0f;
    dt_read_floats(el.get(), &ev, 1);
    std::printf("epoch %d train %.4f eval %.4f\n", e, tot / float(micro), ev);
  }
  return 0;
}

int main(int argc, char **argv) {
  dt_device d0 = pick(argc > 1 ? argv[1] : "sim0");
  dt_device d1 = pick(argc > 2 ? argv[2] : "sim1");
  int epochs = argc > 3 ? std::atoi(argv[3]) : 3;
  int micro = argc > 4 ? std::atoi(argv[4]) : 4;
  std::string opt = argc > 5 ? argv[5] : "sgd";
  if (micro < 1) micro = 1;
  return opt == "momentum" ? run<Momentum>(d0, d1, epochs, micro)
                           : run<PlainSgd>(d0, d1, epochs, micro);
}
