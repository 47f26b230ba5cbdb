// p09_adam_offload_warn.cpp — Adam with optional optimizer-state offload (ZeRO-offload
// style). The model (a two-layer regressor) trains on autodiff<sim:0>. The Adam class keeps
// its moments in a std::map keyed by parameter name, created lazily on the first step on
// the "state device": the parameter's inner device, or the host with --offload-optimizer.
// The gradient is correctly moved to the state device before the moment updates.
// Mistake: with --offload-optimizer the finished update (computed on cpu) is subtracted from
// the parameter's inner primitive on sim:0 without moving it back: backend-mismatch. The
// default run (no flag) is clean.
// run-args: --offload-optimizer
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Param {
  std::string name;
  dt_tensor *value;  // trainable leaf on the model's autodiff device
};

struct Moments {
  dt_tensor *m = nullptr;
  dt_tensor *v = nullptr;
};

struct AdamConfig {
  float lr = 0.05f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
  bool offload = false;
};

class Adam {
 public:
  explicit Adam(AdamConfig cfg) : cfg_(cfg) {}
  ~Adam() {
    for (auto &kv : state_) {
      dt_free(kv.second.m);
      dt_free(kv.second.v);
    }
  }

  void step(std::vector<Param> &params) {
    t_++;
    const float c1 = 1.0f - std::pow(cfg_.beta1, static_cast<float>(t_));
    const float c2 = 1.0f - std::pow(cfg_.beta2, static_cast<float>(t_));
    for (auto &p : params) {
      dt_tensor *g = dt_grad(p.value);
      if (!g)
        continue;
      const dt_device ad = dt_device_of(p.value);
      const dt_device home = dt_inner_device(ad);
      const dt_device state_dev = cfg_.offload ? dt_cpu() : home;
      dt_tensor *gs = dt_to_device(g, state_dev);
      Moments &mo = moments_for(p.name, gs, state_dev);

      dt_tensor *m1 = dt_mul_scalar(mo.m, cfg_.beta1);
      dt_tensor *gm = dt_mul_scalar(gs, 1.0f - cfg_.beta1);
      dt_tensor *m2 = dt_add(m1, gm);
      dt_tensor *g2 = dt_mul(gs, gs);
      dt_tensor *v1 = dt_mul_scalar(mo.v, cfg_.beta2);
      dt_tensor *gv = dt_mul_scalar(g2, 1.0f - cfg_.beta2);
      dt_tensor *v2 = dt_add(v1, gv);
      replace(mo.m, m2);
      replace(mo.v, v2);

      // update = lr * m_hat / (sqrt(v_hat) + eps), with sqrt(x) = exp(0.5 * log(x))
      dt_tensor *vh = dt_mul_scalar(mo.v, 1.0f / c2);
      dt_tensor *vh_eps = dt_add_scalar(vh, 1e-12f);
      dt_tensor *lg = dt_log(vh_eps);
      dt_tensor *half = dt_mul_scalar(lg, 0.5f);
      dt_tensor *root = dt_exp(half);
      dt_tensor *denom = dt_add_scalar(root, cfg_.eps);
      dt_tensor *mh = dt_mul_scalar(mo.m, cfg_.lr / c1);
      dt_tensor *update = dt_div(mh, denom);

      dt_tensor *inner = dt_inner(p.value);
      dt_tensor *next = dt_sub(inner, update); // expect-warning: backend-mismatch
      dt_free(p.value);
      p.value = dt_require_grad(dt_from_inner(ad, next));
      for (dt_tensor *t : {g, gs, m1, gm, g2, v1, gv, vh, vh_eps, lg, half, root, denom, mh,
                           update, inner, next})
        dt_free(t);
    }
  }

 private:
  static void replace(dt_tensor *&slot, dt_tensor *t) {
    dt_free(slot);
    slot = t;
  }
  Moments &moments_for(const std::string &name, const dt_tensor *like, dt_device d) {
    auto it = state_.find(name);
    if (it != state_.end())
      return it->second;
    int64_t shape[DT_MAX_RANK];
    const int rank = dt_rank(like);
    for (int a = 0; a < rank; a++)
      shape[a] = dt_dim(like, a);
    Moments mo;
    mo.m = dt_zeros(d, DT_FLOAT, rank, shape);
    mo.v = dt_zeros(d, DT_FLOAT, rank, shape);
    return state_.emplace(name, mo).first->second;
  }
  AdamConfig cfg_;
  std::map<std::string, Moments> state_;
  int t_ = 0;
};

std::vector<Param> make_model(dt_device ad) {
  const int64_t w1s[2] = {3, 4}, b1s[1] = {4}, w2s[2] = {4, 1}, b2s[1] = {1};
  const dt_device in = dt_inner_device(ad);
  std::vector<Param> ps;
  auto leaf = [&](const char *name, dt_tensor *plain) {
    ps.push_back({name, dt_require_grad(dt_from_inner(ad, plain))});
    dt_free(plain);
  };
  leaf("w1", dt_randn(in, 21, 2, w1s));
  leaf("b1", dt_zeros(in, DT_FLOAT, 1, b1s));
  leaf("w2", dt_randn(in, 22, 2, w2s));
  leaf("b2", dt_zeros(in, DT_FLOAT, 1, b2s));
  return ps;
}

dt_tensor *forward(const std::vector<Param> &ps, const dt_tensor *x) {
  dt_tensor *h0 = dt_matmul(x, ps[0].value);
  dt_tensor *h1 = dt_add(h0, ps[1].value);
  dt_tensor *h = dt_tanh(h1);
  dt_tensor *o0 = dt_matmul(h, ps[2].value);
  dt_tensor *o = dt_add(o0, ps[3].value);
  for (dt_tensor *t : {h0, h1, h, o0})
    dt_free(t);
  return o;
}

}  // namespace

int main(int argc, char **argv) {
  AdamConfig cfg;
  for (int i = 1; i < argc; i++)
    if (std::strcmp(argv[i], "--offload-optimizer") == 0)
      cfg.offload = true;

  const dt_device dev = dt_autodiff(dt_sim(0));
  std::vector<Param> params = make_model(dev);
  auto opt = std::make_unique<Adam>(cfg);

  const float xs[8 * 3] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 1.0f, 0.0f, -0.1f,
                           -0.2f, -0.3f, -0.4f, -0.5f, 0.6f, 0.2f, 0.3f, -0.7f, 0.1f, 0.0f, 0.9f, 0.4f};
  float ys[8];
  for (int i = 0; i < 8; i++)
    ys[i] = xs[i * 3] - 2.0f * xs[i * 3 + 1] + 0.5f * xs[i * 3 + 2];
  const int64_t xshape[2] = {8, 3}, yshape[2] = {8, 1};
  dt_tensor *xp = dt_from_floats(dt_inner_device(dev), xs, 2, xshape);
  dt_tensor *yp = dt_from_floats(dt_inner_device(dev), ys, 2, yshape);
  dt_tensor *x = dt_from_inner(dev, xp);
  dt_tensor *y = dt_from_inner(dev, yp);

  for (int step = 0; step < 5; step++) {
    dt_tensor *pred = forward(params, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    if (dt_backward(loss) != 0)
      return 1;
    float l = 0.0f;
    dt_read_floats(loss, &l, 1);
    opt->step(params);
    std::printf("step %d loss %.5f%s\n", step, l, cfg.offload ? " (offloaded state)" : "");
    dt_free(pred);
    dt_free(loss);
  }
  for (auto &p : params)
    dt_free(p.value);
  for (dt_tensor *t : {xp, yp, x, y})
    dt_free(t);
  return 0;
}
