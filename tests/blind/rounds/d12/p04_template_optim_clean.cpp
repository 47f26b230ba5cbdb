// provenance: blind round d12
// run-env: DT_DEVICE=sim1 EVAL_DEVICE=cpu OPTIMIZER=adam
/* The same training loop instantiated with two optimizers (template parameter). Parameters
 * live in a std::map of named slots; after training, a host checkpoint is restored on
 * EVAL_DEVICE for plain evaluation. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Deleter {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Owned = std::unique_ptr<dt_tensor, Deleter>;

static dt_device device_from(const char *s, dt_device dflt) {
  if (!s) return dflt;
  std::string v(s);
  if (v == "cpu") return dt_cpu();
  if (v == "sim0") return dt_sim(0);
  if (v == "sim1") return dt_sim(1);
  return dflt;
}

struct Model {
  dt_device ad;
  std::map<std::string, Owned> params;
  explicit Model(dt_device base) : ad(dt_autodiff(base)) {
    const int64_t w1[2] = {3, 8}, b1[1] = {8}, w2[2] = {8, 2}, b2[1] = {2};
    add("l1.w", Owned(dt_randn(base, 5, 2, w1)), 0.5f);
    add("l1.b", Owned(dt_zeros(base, DT_FLOAT, 1, b1)), 1.0f);
    add("l2.w", Owned(dt_randn(base, 6, 2, w2)), 0.3f);
    add("l2.b", Owned(dt_zeros(base, DT_FLOAT, 1, b2)), 1.0f);
  }
  void add(const std::string &n, Owned plain, float scale) {
    Owned s(dt_mul_scalar(plain.get(), scale));
    params[n] = Owned(dt_require_grad(dt_from_inner(ad, s.get())));
  }
  dt_tensor *forward(const dt_tensor *x) const {
    Owned h(dt_matmul(x, params.at("l1.w").get()));
    Owned hb(dt_add(h.get(), params.at("l1.b").get()));
    Owned a(dt_sigmoid(hb.get()));
    Owned o(dt_matmul(a.get(), params.at("l2.w").get()));
    return dt_add(o.get(), params.at("l2.b").get());
  }
};

class Sgd {
 public:
  explicit Sgd(float lr) : lr_(lr) {}
  Owned update(const std::string &, const dt_tensor *g) { return Owned(dt_mul_scalar(g, lr_)); }
  static const char *name() { return "sgd"; }

 private:
  float lr_;
};

class Adam {
 public:
  explicit Adam(float lr) : lr_(lr) {}
  Owned update(const std::string &key, const dt_tensor *g) {
    auto &st = state_[key];
    st.t++;
    if (!st.m) {
      st.m = Owned(dt_mul_scalar(g, 0.0f));
      st.v = Owned(dt_mul_scalar(g, 0.0f));
    }
    Owned m1(dt_mul_scalar(st.m.get(), 0.9f)), g1(dt_mul_scalar(g, 0.1f));
    st.m = Owned(dt_add(m1.get(), g1.get()));
    Owned gg(dt_mul(g, g));
    Owned v1(dt_mul_scalar(st.v.get(), 0.99f)), gg1(dt_mul_scalar(gg.get(), 0.01f));
    st.v = Owned(dt_add(v1.get(), gg1.get()));
    Owned mh(dt_mul_scalar(st.m.get(), 1.0f / (1.0f - std::pow(0.9f, (float)st.t))));
    Owned vh(dt_mul_scalar(st.v.get(), 1.0f / (1.0f - std::pow(0.99f, (float)st.t))));
    Owned vhe(dt_add_scalar(vh.get(), 1e-10f));
    Owned lg(dt_log(vhe.get()));
    Owned half(dt_mul_scalar(lg.get(), 0.5f));
    Owned sd(dt_exp(half.get()));
    Owned den(dt_add_scalar(sd.get(), 1e-6f));
    Owned r(dt_div(mh.get(), den.get()));
    return Owned(dt_mul_scalar(r.get(), lr_));
  }
  static const char *name() { return "adam"; }

 private:
  struct Slot {
    Owned m, v;
    int t = 0;
  };
  float lr_;
  std::map<std::string, Slot> state_;
};

template <typename Opt>
float train(Model &m, Opt &opt, int steps) {
  const int64_t xs[2] = {6, 3}, ys[2] = {6, 2};
  float x[18], y[12], lv = 0;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < 6; i++) {
      float a = std::sin(0.3f * (float)(s + i)), b = std::cos(0.7f * (float)(s * i));
      x[i * 3] = a;
      x[i * 3 + 1] = b;
      x[i * 3 + 2] = a * b;
      y[i * 2] = a > b ? 1.0f : 0.0f;
      y[i * 2 + 1] = a > b ? 0.0f : 1.0f;
    }
    Owned xt(dt_from_floats(m.ad, x, 2, xs)), yt(dt_from_floats(m.ad, y, 2, ys));
    Owned out(m.forward(xt.get()));
    Owned loss(dt_mse_loss(out.get(), yt.get()));
    dt_read_floats(loss.get(), &lv, 1);
    dt_backward(loss.get());
    for (auto &[key, p] : m.params) {
      Owned g(dt_grad(p.get()));
      if (!g) continue;
      Owned step = opt.update(key, g.get());
      Owned cur(dt_inner(p.get()));
      Owned nx(dt_sub(cur.get(), step.get()));
      p = Owned(dt_require_grad(dt_from_inner(m.ad, nx.get())));
    }
  }
  std::printf("[%s] final loss %.5f\n", Opt::name(), lv);
  return lv;
}

static std::map<std::string, Owned> checkpoint(const Model &m) {
  std::map<std::string, Owned> ck;
  for (const auto &kv : m.params) {
    Owned in(dt_inner(kv.second.get()));
    ck.emplace(kv.first, Owned(dt_to_device(in.get(), dt_cpu())));
  }
  return ck;
}

static float evaluate_plain(const std::map<std::string, Owned> &ck, dt_device d) {
  std::map<std::string, Owned> w;
  for (const auto &[k, t] : ck) w.emplace(k, Owned(dt_to_device(t.get(), d)));
  const int64_t xs[2] = {2, 3};
  const float x[6] = {0.1f, 0.9f, 0.09f, 0.8f, -0.2f, -0.16f};
  Owned xt(dt_from_floats(d, x, 2, xs));
  Owned h(dt_matmul(xt.get(), w.at("l1.w").get()));
  Owned hb(dt_add(h.get(), w.at("l1.b").get()));
  Owned a(dt_sigmoid(hb.get()));
  Owned o(dt_matmul(a.get(), w.at("l2.w").get()));
  Owned ob(dt_add(o.get(), w.at("l2.b").get()));
  Owned s(dt_sum(ob.get()));
  float v = 0;
  dt_read_floats(s.get(), &v, 1);
  return v;
}

int main() {
  dt_device base = device_from(std::getenv("DT_DEVICE"), dt_cpu());
  dt_device eval = device_from(std::getenv("EVAL_DEVICE"), base);
  const char *which = std::getenv("OPTIMIZER");
  Model model(base);
  if (which && std::strcmp(which, "adam") == 0) {
    Adam opt(0.02f);
    train(model, opt, 30);
  } else {
    Sgd opt(0.3f);
    train(model, opt, 30);
  }
  auto ck = checkpoint(model);
  std::printf("eval sum %.4f (%zu tensors)\n", evaluate_plain(ck, eval), ck.size());
  return 0;
}
