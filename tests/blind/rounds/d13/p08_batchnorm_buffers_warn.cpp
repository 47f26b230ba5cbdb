// MLP with a BatchNorm1d layer: trainable gamma/beta and running mean/variance buffers.
// Training runs on autodiff<sim:0> with batch statistics; after every epoch an inference copy
// (plain tensors) is cloned onto --eval-device and evaluated with the running statistics.
//
//   usage: p08 [--epochs N] [--eval-device cpu|sim0|sim1] [--momentum M]
// run-args: --epochs 4 --eval-device sim1
#include <dt/dt.h>

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


struct Linear {
  T w, b;
  Linear() = default;
  Linear(dt_device ad, int64_t in, int64_t out, uint64_t seed) {
    dt_device plain = dt_inner_device(ad);
    const int64_t ws[2] = {in, out}, bs[1] = {out};
    T r(dt_randn(plain, seed, 2, ws));
    T s(dt_mul_scalar(r.get(), 1.0f / std::sqrt(float(in))));
    T z(dt_zeros(plain, DT_FLOAT, 1, bs));
    w = T(dt_require_grad(dt_from_inner(ad, s.get())));
    b = T(dt_require_grad(dt_from_inner(ad, z.get())));
  }
  T operator()(const dt_tensor *x) const {
    T z(dt_matmul(x, w.get()));
    return T(dt_add(z.get(), b.get()));
  }
};

class BatchNorm1d {
 public:
  BatchNorm1d() = default;
  BatchNorm1d(dt_device ad, int64_t features, float momentum) : momentum_(momentum) {
    dt_device plain = dt_inner_device(ad);
    const int64_t s[1] = {features};
    T one(dt_ones(plain, DT_FLOAT, 1, s)), zero(dt_zeros(plain, DT_FLOAT, 1, s));
    gamma = T(dt_require_grad(dt_from_inner(ad, one.get())));
    beta = T(dt_require_grad(dt_from_inner(ad, zero.get())));
    running_mean = T(dt_zeros(plain, DT_FLOAT, 1, s));
    running_var = T(dt_ones(plain, DT_FLOAT, 1, s));
  }

  // Training: normalise with the batch statistics and update the running buffers.
  T train_forward(const dt_tensor *x) {
    const float inv_n = 1.0f / float(dt_dim(x, 0));
    T sum(dt_sum_dim(x, 0));
    T mean(dt_mul_scalar(sum.get(), inv_n));
    T xc(dt_sub(x, mean.get()));
    T sq(dt_mul(xc.get(), xc.get()));
    T vs(dt_sum_dim(sq.get(), 0));
    T var(dt_mul_scalar(vs.get(), inv_n));
    T y = normalise(xc.get(), var.get(), gamma.get(), beta.get());
    T mi(dt_inner(mean.get())), vi(dt_inner(var.get()));
    running_mean = blend(running_mean.get(), mi.get());
    running_var = blend(running_var.get(), vi.get());
    return y;
  }

  // Inference with plain tensors: the running statistics folded into one affine map,
  // y = x * scale + shift with scale = gamma / sqrt(var + eps), shift = beta - mean * scale.
  T eval_forward(const dt_tensor *x, const dt_tensor *g, const dt_tensor *b) const {
    T inv = inv_std(running_var.get());
    T scale(dt_mul(inv.get(), g)); // expect-warning: device-mismatch
    T ms(dt_mul(running_mean.get(), scale.get()));
    T shift(dt_sub(b, ms.get()));
    T xs(dt_mul(x, scale.get()));
    return T(dt_add(xs.get(), shift.get()));
  }

  T gamma, beta;                  // parameters
  T running_mean, running_var;    // buffers

 private:
  static T inv_std(const dt_tensor *var) {
    T ve(dt_add_scalar(var, 1e-5f));
    T lg(dt_log(ve.get()));
    T nh(dt_mul_scalar(lg.get(), -0.5f));
    return T(dt_exp(nh.get()));
  }
  static T normalise(const dt_tensor *xc, const dt_tensor *var, const dt_tensor *g,
                     const dt_tensor *b) {
    T inv = inv_std(var);
    T xn(dt_mul(xc, inv.get()));
    T sc(dt_mul(xn.get(), g));
    return T(dt_add(sc.get(), b));
  }
  T blend(const dt_tensor *old, const dt_tensor *fresh) const {
    T a(dt_mul_scalar(old, 1.0f - momentum_));
    T c(dt_mul_scalar(fresh, momentum_));
    return T(dt_add(a.get(), c.get()));
  }
  float momentum_ = 0.1f;
};

class Net {
 public:
  Net(dt_device plain, float momentum)
      : ad_(dt_autodiff(plain)), fc1_(ad_, 6, 10, 1), bn_(ad_, 10, momentum), fc2_(ad_, 10, 2, 2) {}

  T forward(const dt_tensor *x) {
    T h = fc1_(x);
    T n = bn_.train_forward(h.get());
    T a(dt_relu(n.get()));
    return fc2_(a.get());
  }

  std::vector<T *> parameters() { return {&fc1_.w, &fc1_.b, &bn_.gamma, &bn_.beta, &fc2_.w, &fc2_.b}; }

  void sgd(float lr) {
    for (T *p : parameters()) {
      T g(dt_grad(p->get()));
      if (!g) continue;
      T in(dt_inner(p->get()));
      T st(dt_mul_scalar(g.get(), lr));
      T nw(dt_sub(in.get(), st.get()));
      *p = T(dt_require_grad(dt_from_inner(ad_, nw.get())));
    }
  }

  // Inference copy: plain parameters moved to `dev`; the BatchNorm buffers come along.
  struct Inference {
    dt_device dev;
    std::vector<T> params;  // fc1.w fc1.b gamma beta fc2.w fc2.b (plain, on dev)
    const BatchNorm1d *bn;
    T run(const std::vector<float> &x, int64_t rows) const {
      const int64_t xs[2] = {rows, 6};
      T xt(dt_from_floats(dev, x.data(), 2, xs));
      T z(dt_matmul(xt.get(), params[0].get()));
      T h(dt_add(z.get(), params[1].get()));
      T n = bn->eval_forward(h.get(), params[2].get(), params[3].get());
      T a(dt_relu(n.get()));
      T z2(dt_matmul(a.get(), params[4].get()));
      return T(dt_add(z2.get(), params[5].get()));
    }
  };

  Inference clone_to(dt_device dev) {
    Inference inf{dev, {}, &bn_};
    for (T *p : parameters()) {
      T in(dt_inner(p->get()));
      inf.params.emplace_back(dt_to_device(in.get(), dev));
    }
    return inf;
  }

  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  Linear fc1_;
  BatchNorm1d bn_;
  Linear fc2_;
};

static dt_device parse(const std::string &s, dt_device fallback) {
  if (s == "cpu") return dt_cpu();
  if (s == "sim0") return dt_sim(0);
  if (s == "sim1") return dt_sim(1);
  return fallback;
}

static void batch(int k, int64_t rows, std::vector<float> &x, std::vector<float> &y) {
  x.resize(size_t(rows * 6));
  y.resize(size_t(rows * 2));
  for (int64_t r = 0; r < rows; ++r) {
    float s = 0.0f;
    for (int c = 0; c < 6; ++c) {
      float v = 3.0f + 2.0f * std::sin(0.41f * float(k * rows + r) + float(c));
      x[size_t(r * 6 + c)] = v;
      s += v;
    }
    y[size_t(r * 2)] = 0.1f * s - 1.8f;
    y[size_t(r * 2 + 1)] = std::sin(x[size_t(r * 6)]);
  }
}

int main(int argc, char **argv) {
  int epochs = 3;
  float momentum = 0.1f;
  std::string eval_name;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    if (k == "--epochs") epochs = std::atoi(argv[i + 1]);
    else if (k == "--eval-device") eval_name = argv[i + 1];
    else if (k == "--momentum") momentum = float(std::atof(argv[i + 1]));
  }
  const dt_device train_dev = dt_sim(0);
  const dt_device eval_dev = parse(eval_name, train_dev);
  Net net(train_dev, momentum);

  const int64_t R = 8;
  std::vector<float> x, y;
  for (int e = 0; e < epochs; ++e) {
    float tot = 0.0f;
    for (int s = 0; s < 6; ++s) {
      batch(e * 6 + s, R, x, y);
      const int64_t xs[2] = {R, 6}, ys[2] = {R, 2};
      T xt(dt_from_floats(net.device(), x.data(), 2, xs));
      T yt(dt_from_floats(net.device(), y.data(), 2, ys));
      T out = net.forward(xt.get());
      T loss(dt_mse_loss(out.get(), yt.get()));
      T li(dt_inner(loss.get()));
      float lv = 0.0f;
      dt_read_floats(li.get(), &lv, 1);
      tot += lv;
      dt_backward(loss.get());
      net.sgd(0.05f);
    }
    Net::Inference inf = net.clone_to(eval_dev);
    batch(1000 + e, R, x, y);
    T pred = inf.run(x, R);
    const int64_t ys[2] = {R, 2};
    T yt(dt_from_floats(eval_dev, y.data(), 2, ys));
    T el(dt_mse_loss(pred.get(), yt.get()));
    float ev = -1.0f;
    if (el) dt_read_floats(el.get(), &ev, 1);
    std::printf("epoch %d train %.4f eval %.4f\n", e, tot / 6.0f, ev);
  }
  return 0;
}
