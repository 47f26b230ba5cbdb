// p11_grad_hooks_bug.cpp — a trainer with gradient hooks: a std::map from hook name to
// std::function<dt_tensor *(const std::string &, dt_tensor *)> is run over every gradient
// before the SGD step (a scaling hook for loss-scale undo, a clamp hook, a logging hook).
// The model is a small two-tower network on autodiff<sim:0>; the hooks are registered in the
// Trainer constructor and capture tensors built there.
// Mistake: the clamp hook's bounds are built once in the constructor on dt_cpu() ("constants
// live on the host"), while every gradient is a plain tensor on sim:0; the hook's dt_greater
// compares a sim:0 gradient with a cpu bound: backend-mismatch on the first gradient.
#include <dt/dt.h>

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int64_t kIn = 4, kHid = 3, kBatch = 6;

struct Tower {
  dt_tensor *w = nullptr;  // [kIn, kHid]
  dt_tensor *b = nullptr;  // [kHid]
};

struct Model {
  dt_device dev;
  Tower left, right;
  dt_tensor *head = nullptr;  // [kHid, 1]

  explicit Model(dt_device ad) : dev(ad) {
    left = make_tower(1);
    right = make_tower(2);
    const int64_t hs[2] = {kHid, 1};
    head = leaf(dt_randn(dt_inner_device(dev), 3, 2, hs));
  }
  ~Model() {
    for (dt_tensor *t : {left.w, left.b, right.w, right.b, head})
      dt_free(t);
  }
  Tower make_tower(uint64_t seed) {
    const int64_t ws[2] = {kIn, kHid}, bs[1] = {kHid};
    Tower t;
    t.w = leaf(dt_randn(dt_inner_device(dev), seed, 2, ws));
    t.b = leaf(dt_zeros(dt_inner_device(dev), DT_FLOAT, 1, bs));
    return t;
  }
  dt_tensor *leaf(dt_tensor *plain) {
    dt_tensor *t = dt_require_grad(dt_from_inner(dev, plain));
    dt_free(plain);
    return t;
  }
  std::map<std::string, dt_tensor **> named() {
    return {{"left.w", &left.w}, {"left.b", &left.b}, {"right.w", &right.w},
            {"right.b", &right.b}, {"head", &head}};
  }
  static dt_tensor *tower(const Tower &t, const dt_tensor *x) {
    dt_tensor *z = dt_matmul(x, t.w);
    dt_tensor *zb = dt_add(z, t.b);
    dt_tensor *a = dt_tanh(zb);
    dt_free(z);
    dt_free(zb);
    return a;
  }
  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *l = tower(left, x);
    dt_tensor *r = tower(right, x);
    dt_tensor *gate = dt_sigmoid(r);
    dt_tensor *mixed = dt_mul(l, gate);
    dt_tensor *out = dt_matmul(mixed, head);
    for (dt_tensor *t : {l, r, gate, mixed})
      dt_free(t);
    return out;
  }
};

using Hook = std::function<dt_tensor *(const std::string &, dt_tensor *)>;

class Trainer {
 public:
  Trainer(Model &m, float loss_scale, float clamp) : model_(m) {
    const int64_t one[1] = {1};
    hi_ = dt_full(dt_cpu(), clamp, 1, one);
    lo_ = dt_full(dt_cpu(), -clamp, 1, one);
    hooks_["0-unscale"] = [loss_scale](const std::string &, dt_tensor *g) {
      return dt_mul_scalar(g, 1.0f / loss_scale);
    };
    hooks_["1-clamp"] = [this](const std::string &, dt_tensor *g) {
      dt_tensor *over = dt_greater(g, hi_); // expect-error: backend-mismatch
      dt_tensor *g1 = dt_where(over, hi_, g);
      dt_tensor *under = dt_greater(lo_, g1);
      dt_tensor *g2 = dt_where(under, lo_, g1);
      for (dt_tensor *t : {over, g1, under})
        dt_free(t);
      return g2;
    };
    hooks_["2-log"] = [this](const std::string &name, dt_tensor *g) {
      dt_tensor *sq = dt_mul(g, g);
      dt_tensor *s = dt_sum(sq);
      float v = 0.0f;
      if (dt_read_floats(s, &v, 1) == 0)
        norms_[name] = v;
      dt_free(sq);
      dt_free(s);
      return dt_mul_scalar(g, 1.0f);
    };
    scale_ = loss_scale;
  }
  ~Trainer() {
    dt_free(hi_);
    dt_free(lo_);
  }

  float step(const dt_tensor *x, const dt_tensor *y, float lr) {
    dt_tensor *pred = model_.forward(x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_tensor *scaled = dt_mul_scalar(loss, scale_);
    dt_backward(scaled);
    float l = 0.0f;
    dt_read_floats(loss, &l, 1);
    for (auto &entry : model_.named()) {
      dt_tensor *g = dt_grad(*entry.second);
      if (!g)
        continue;
      for (auto &h : hooks_) {
        dt_tensor *next = h.second(entry.first, g);
        dt_free(g);
        g = next;
      }
      dt_tensor *inner = dt_inner(*entry.second);
      dt_tensor *delta = dt_mul_scalar(g, lr);
      dt_tensor *upd = dt_sub(inner, delta);
      dt_free(*entry.second);
      *entry.second = dt_require_grad(dt_from_inner(model_.dev, upd));
      for (dt_tensor *t : {g, inner, delta, upd})
        dt_free(t);
    }
    for (dt_tensor *t : {pred, loss, scaled})
      dt_free(t);
    return l;
  }
  const std::map<std::string, float> &norms() const { return norms_; }

 private:
  Model &model_;
  std::map<std::string, Hook> hooks_;
  std::map<std::string, float> norms_;
  dt_tensor *hi_ = nullptr;
  dt_tensor *lo_ = nullptr;
  float scale_ = 1.0f;
};

}  // namespace

int main() {
  const dt_device dev = dt_autodiff(dt_sim(0));
  auto model = std::make_unique<Model>(dev);
  Trainer trainer(*model, 128.0f, 0.25f);

  std::vector<float> xs(kBatch * kIn), ys(kBatch);
  for (int64_t i = 0; i < kBatch; i++) {
    for (int64_t j = 0; j < kIn; j++)
      xs[i * kIn + j] = static_cast<float>((i * 2 + j) % 5) * 0.25f - 0.5f;
    ys[i] = xs[i * kIn] * xs[i * kIn + 1];
  }
  const int64_t xshape[2] = {kBatch, kIn}, yshape[2] = {kBatch, 1};
  dt_tensor *xp = dt_from_floats(dt_inner_device(dev), xs.data(), 2, xshape);
  dt_tensor *yp = dt_from_floats(dt_inner_device(dev), ys.data(), 2, yshape);
  dt_tensor *x = dt_from_inner(dev, xp);
  dt_tensor *y = dt_from_inner(dev, yp);
  for (int step = 0; step < 3; step++)
    std::printf("step %d loss %.5f\n", step, trainer.step(x, y, 0.3f));
  for (const auto &kv : trainer.norms())
    std::printf("|grad %s|^2 = %.6f\n", kv.first.c_str(), kv.second);
  for (dt_tensor *t : {xp, yp, x, y})
    dt_free(t);
  return 0;
}
