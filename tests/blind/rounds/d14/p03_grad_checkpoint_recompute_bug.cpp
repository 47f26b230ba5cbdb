// Gradient checkpointing: a deep residual MLP is run once without a graph, keeping only each
// segment's input; the backward pass recomputes one segment at a time under autodiff and chains
// the segments through a vector-Jacobian surrogate. AdamW state per parameter name.
// run-args: --layers 6 --segment 2 --steps 3
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int64_t W = 6, B = 4;

struct Del { void operator()(dt_tensor *t) const { dt_free(t); } };
using T = std::unique_ptr<dt_tensor, Del>;

class Module {
 public:
  virtual ~Module() = default;
  // params: the tensors to use this time (plain for the no-grad pass, tracked for recompute)
  virtual T forward(dt_tensor *x, const std::vector<dt_tensor *> &params) const = 0;
  virtual std::vector<std::pair<std::string, dt_tensor **>> parameters() = 0;
};

class ResidualDense : public Module {
 public:
  ResidualDense(dt_device d, int idx) : name_("res" + std::to_string(idx)) {
    int64_t ws[2] = {W, W}, bs[1] = {W};
    w_ = dt_mul_scalar(dt_randn(d, 40 + (uint64_t)idx, 2, ws), 0.2f);
    b_ = dt_zeros(d, DT_FLOAT, 1, bs);
  }
  ~ResidualDense() override { dt_free(w_); dt_free(b_); }
  T forward(dt_tensor *x, const std::vector<dt_tensor *> &p) const override {
    T z(dt_add(dt_matmul(x, p[0]), p[1]));
    T a(dt_tanh(z.get()));
    return T(dt_add(x, a.get()));
  }
  std::vector<std::pair<std::string, dt_tensor **>> parameters() override {
    return {{name_ + ".w", &w_}, {name_ + ".b", &b_}};
  }

 private:
  std::string name_;
  dt_tensor *w_, *b_;
};

struct AdamW {
  struct State { T m, v; };
  float lr = 0.02f, b1 = 0.9f, b2 = 0.99f, wd = 0.01f;
  int t = 0;
  std::unordered_map<std::string, State> state;

  void update(const std::string &name, dt_tensor **p, dt_tensor *g) {
    auto it = state.find(name);
    if (it == state.end()) {
      State s{T(dt_mul_scalar(g, 0.0f)), T(dt_mul_scalar(g, 0.0f))};
      it = state.emplace(name, std::move(s)).first;
    }
    State &s = it->second;
    s.m = T(dt_add(T(dt_mul_scalar(s.m.get(), b1)).get(), T(dt_mul_scalar(g, 1 - b1)).get()));
    T g2(dt_mul(g, g));
    s.v = T(dt_add(T(dt_mul_scalar(s.v.get(), b2)).get(), T(dt_mul_scalar(g2.get(), 1 - b2)).get()));
    float c1 = 1 - std::pow(b1, (float)t), c2 = 1 - std::pow(b2, (float)t);
    T den(dt_add_scalar(T(dt_exp(T(dt_mul_scalar(T(dt_log(T(dt_add_scalar(s.v.get(), 1e-12f)).get())).get(), 0.5f)).get())).get(), 1e-6f * std::sqrt(c2)));
    T step(dt_div(T(dt_mul_scalar(s.m.get(), lr * std::sqrt(c2) / c1)).get(), den.get()));
    T decayed(dt_mul_scalar(*p, 1 - lr * wd));
    dt_tensor *np = dt_sub(decayed.get(), step.get());
    dt_free(*p);
    *p = np;
  }
};

struct Net {
  std::vector<std::unique_ptr<Module>> layers;
  dt_device ad;
};

// sum(out * upstream): its gradient with respect to the segment's input is upstream^T J
T vjp_surrogate(dt_tensor *out, dt_tensor *upstream) {
  T prod(dt_mul(out, upstream)); // expect-error: autodiff-expected
  return T(dt_sum(prod.get()));
}

T run_segment(Net &net, size_t from, size_t to, dt_tensor *x, bool tracked,
              std::vector<std::pair<std::string, dt_tensor *>> *leaves) {
  T h(dt_mul_scalar(x, 1.0f));
  for (size_t l = from; l < to; l++) {
    std::vector<dt_tensor *> use;
    for (auto &np : net.layers[l]->parameters()) {
      dt_tensor *p = *np.second;
      if (tracked) {
        p = dt_require_grad(dt_from_inner(net.ad, p));
        leaves->push_back({np.first, p});
      }
      use.push_back(p);
    }
    h = net.layers[l]->forward(h.get(), use);
  }
  return h;
}

float train_step(Net &net, AdamW &opt, size_t seg, int step) {
  std::vector<float> xh(B * W), yh(B * W);
  for (size_t i = 0; i < xh.size(); i++) {
    xh[i] = (float)(((int)i * 3 + step) % 7) / 7.0f - 0.5f;
    yh[i] = std::sin(xh[i] * 2.0f);
  }
  int64_t s[2] = {B, W};
  dt_device dev = dt_inner_device(net.ad);
  size_t n = net.layers.size(), nseg = (n + seg - 1) / seg;
  std::vector<T> ckpt;
  T h(dt_from_floats(dev, xh.data(), 2, s));
  for (size_t k = 0; k < nseg; k++) {
    ckpt.emplace_back(dt_mul_scalar(h.get(), 1.0f));
    h = run_segment(net, k * seg, std::min(n, (k + 1) * seg), h.get(), false, nullptr);
  }
  opt.t++;
  float lv = 0.0f;
  T upstream;
  for (size_t k = nseg; k-- > 0;) {
    std::vector<std::pair<std::string, dt_tensor *>> leaves;
    T x(dt_require_grad(dt_from_inner(net.ad, ckpt[k].get())));
    T out = run_segment(net, k * seg, std::min(n, (k + 1) * seg), x.get(), true, &leaves);
    T objective;
    if (k + 1 == nseg) {
      T y(dt_from_floats(net.ad, yh.data(), 2, s));
      objective = T(dt_mse_loss(out.get(), y.get()));
      dt_read_floats(objective.get(), &lv, 1);
    } else {
      objective = vjp_surrogate(out.get(), upstream.get());
    }
    dt_backward(objective.get());
    upstream = T(dt_grad(x.get()));
    size_t li = 0;
    for (size_t l = k * seg; l < std::min(n, (k + 1) * seg); l++)
      for (auto &np : net.layers[l]->parameters()) {
        T g(dt_grad(leaves[li++].second));
        if (g) opt.update(np.first, np.second, g.get());
      }
    for (auto &lf : leaves) dt_free(lf.second);
  }
  return lv;
}

}  // namespace

int main(int argc, char **argv) {
  int layers = 4, seg = 2, steps = 2;
  dt_device inner = dt_sim(1);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--layers")) layers = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--segment")) seg = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--device") && !std::strcmp(argv[i + 1], "cpu")) inner = dt_cpu();
  }
  if (seg < 1) seg = 1;
  Net net;
  net.ad = dt_autodiff(inner);
  for (int l = 0; l < layers; l++) net.layers.push_back(std::make_unique<ResidualDense>(inner, l));
  AdamW opt;
  for (int s = 0; s < steps; s++) std::printf("step %d loss %.5f\n", s, train_step(net, opt, (size_t)seg, s));
  return 0;
}
