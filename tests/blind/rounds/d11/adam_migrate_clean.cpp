// provenance: blind round d11
// Adam training that migrates mid-run: the model and the optimizer's moment tensors start on
// one device and, half-way, are moved together to another (as when a job is rescheduled).
// TRAIN_DEVICES="A,B" picks the two devices among cpu, sim0, sim1 (default "sim0,sim1").
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

using TensorPtr = std::shared_ptr<dt_tensor>;

static TensorPtr wrap(dt_tensor *t) { return TensorPtr(t, [](dt_tensor *p) { dt_free(p); }); }

struct ParamSpec {
  std::string name;
  int64_t rows, cols;
  float scale;
};

class Model {
 public:
  Model(dt_device plain, const std::vector<ParamSpec> &specs) : ad_(dt_autodiff(plain)) {
    uint64_t seed = 900;
    for (const auto &s : specs) {
      int64_t sh[2] = {s.rows, s.cols};
      TensorPtr r = wrap(dt_randn(plain, seed++, 2, sh));
      TensorPtr v = wrap(dt_mul_scalar(r.get(), s.scale));
      params_[s.name] = wrap(dt_require_grad(dt_from_inner(ad_, v.get())));
      order_.push_back(s.name);
    }
  }

  TensorPtr forward(const dt_tensor *x) const {
    TensorPtr h = wrap(dt_matmul(x, params_.at("w1").get()));
    TensorPtr hb = wrap(dt_add(h.get(), params_.at("b1").get()));
    TensorPtr a = wrap(dt_sigmoid(hb.get()));
    TensorPtr o = wrap(dt_matmul(a.get(), params_.at("w2").get()));
    return wrap(dt_add(o.get(), params_.at("b2").get()));
  }

  // moves every parameter to `plain`, keeping them trainable leaves
  void migrate(dt_device plain) {
    dt_device next = dt_autodiff(plain);
    for (auto &kv : params_) {
      TensorPtr in = wrap(dt_inner(kv.second.get()));
      TensorPtr moved = wrap(dt_to_device(in.get(), plain));
      kv.second = wrap(dt_require_grad(dt_from_inner(next, moved.get())));
    }
    ad_ = next;
  }

  std::map<std::string, TensorPtr> &params() { return params_; }
  const std::vector<std::string> &order() const { return order_; }
  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  std::map<std::string, TensorPtr> params_;
  std::vector<std::string> order_;
};

class Adam {
 public:
  struct State {
    TensorPtr m, v;
  };
  Adam(float lr, float b1 = 0.9f, float b2 = 0.999f) : lr_(lr), b1_(b1), b2_(b2) {}

  void step(Model &model) {
    t_++;
    const float c1 = 1.0f - std::pow(b1_, (float)t_);
    const float c2 = 1.0f - std::pow(b2_, (float)t_);
    for (const std::string &name : model.order()) {
      TensorPtr &p = model.params().at(name);
      dt_tensor *graw = dt_grad(p.get());
      if (!graw) continue;
      TensorPtr g = wrap(graw);
      auto it = state_.find(name);
      if (it == state_.end()) {
        State s{zeros_like(g.get()), zeros_like(g.get())};
        it = state_.emplace(name, s).first;
      }
      State &s = it->second;
      s.m = lerp(s.m.get(), g.get(), b1_);
      TensorPtr g2 = wrap(dt_mul(g.get(), g.get()));
      s.v = lerp(s.v.get(), g2.get(), b2_);
      TensorPtr vh = wrap(dt_mul_scalar(s.v.get(), 1.0f / c2));
      TensorPtr lv = wrap(dt_log(wrap(dt_add_scalar(vh.get(), 1e-8f)).get()));
      TensorPtr den = wrap(dt_exp(wrap(dt_mul_scalar(lv.get(), 0.5f)).get()));
      TensorPtr mh = wrap(dt_mul_scalar(s.m.get(), lr_ / c1));
      TensorPtr upd = wrap(dt_div(mh.get(), den.get()));
      TensorPtr in = wrap(dt_inner(p.get()));
      TensorPtr nx = wrap(dt_sub(in.get(), upd.get()));
      p = wrap(dt_require_grad(dt_from_inner(model.device(), nx.get())));
    }
  }

  // optimizer state follows the model
  void migrate(dt_device plain) {
    for (auto &kv : state_) {
      kv.second.m = wrap(dt_to_device(kv.second.m.get(), plain));
      kv.second.v = wrap(dt_to_device(kv.second.v.get(), plain));
    }
  }

  size_t tracked() const { return state_.size(); }

 private:
  static TensorPtr zeros_like(const dt_tensor *t) {
    int64_t sh[2] = {dt_dim(t, 0), dt_dim(t, 1)};
    return wrap(dt_zeros(dt_device_of(t), DT_FLOAT, 2, sh));
  }
  static TensorPtr lerp(const dt_tensor *state, const dt_tensor *x, float beta) {
    TensorPtr a = wrap(dt_mul_scalar(state, beta));
    TensorPtr b = wrap(dt_mul_scalar(x, 1.0f - beta));
    return wrap(dt_add(a.get(), b.get()));
  }

  float lr_, b1_, b2_;
  int t_ = 0;
  std::unordered_map<std::string, State> state_;
};

static dt_device parse_one(const std::string &s) {
  if (s == "cpu") return dt_cpu();
  if (s == "sim1") return dt_sim(1);
  return dt_sim(0);
}

static std::pair<dt_device, dt_device> devices_from_env() {
  const char *e = std::getenv("TRAIN_DEVICES");
  std::string spec = e ? e : "sim0,sim1";
  size_t comma = spec.find(',');
  if (comma == std::string::npos) return {parse_one(spec), parse_one(spec)};
  return {parse_one(spec.substr(0, comma)), parse_one(spec.substr(comma + 1))};
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 16;
  const int total = steps > 1 ? steps : 16;
  auto devs = devices_from_env();
  Model model(devs.first, {{"w1", 2, 6, 0.5f}, {"b1", 1, 6, 0.0f}, {"w2", 6, 1, 0.5f}, {"b2", 1, 1, 0.0f}});
  Adam opt(0.05f);

  std::vector<float> xs, ys;
  for (int i = 0; i < 12; i++) {
    float a = (float)(i % 4) / 3.0f, b = (float)(i / 4) / 2.0f;
    xs.push_back(a);
    xs.push_back(b);
    ys.push_back(a * b);
  }
  const int64_t xsh[2] = {12, 2}, ysh[2] = {12, 1};
  float first = NAN, last = NAN;
  for (int s = 0; s < total; s++) {
    if (s == total / 2) {
      model.migrate(devs.second);
      opt.migrate(devs.second);
      char name[32];
      dt_device_name(model.device(), name, sizeof name);
      std::printf("step %d: migrated to %s (%zu optimizer slots)\n", s, name, opt.tracked());
    }
    TensorPtr x = wrap(dt_from_floats(model.device(), xs.data(), 2, xsh));
    TensorPtr y = wrap(dt_from_floats(model.device(), ys.data(), 2, ysh));
    TensorPtr pred = model.forward(x.get());
    TensorPtr loss = wrap(dt_mse_loss(pred.get(), y.get()));
    dt_backward(loss.get());
    TensorPtr li = wrap(dt_inner(loss.get()));
    dt_read_floats(li.get(), &last, 1);
    if (s == 0) first = last;
    opt.step(model);
  }
  std::printf("loss %.5f -> %.5f\n", first, last);
  if (!std::isfinite(last)) std::fprintf(stderr, "warning: loss diverged\n");
  return 0;
}
