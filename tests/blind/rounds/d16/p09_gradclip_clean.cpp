// provenance: blind round d16
// p09: a two-stage model (stage "enc" on autodiff<sim:0>, stage "head" on autodiff<sim:1>)
// trained with momentum SGD and global-norm gradient clipping. The clipping gathers one
// squared norm per parameter from both devices into a single dt_cat on the reduce device,
// moving each part there unless it already is; the scale is applied to every gradient on its
// own device. Parameters live in a std::map keyed by name, gradients in an unordered_map.
#include <dt/dt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Own = std::unique_ptr<dt_tensor, Free>;

struct Shape {
  int64_t d[2];
  int rank;
};

struct Param {
  dt_device device;  // the autodiff device of its stage
  Shape shape;
  Own value;
};

class TwoStageModel {
 public:
  TwoStageModel() : enc_(dt_autodiff(dt_sim(0))), head_(dt_autodiff(dt_sim(1))) {
    add("enc.w", enc_, {{4, 6}, 2}, 7);
    add("enc.b", enc_, {{6, 0}, 1}, 0);
    add("head.w", head_, {{6, 2}, 2}, 8);
    add("head.b", head_, {{2, 0}, 1}, 0);
  }

  dt_device input_device() const { return enc_; }
  dt_device output_device() const { return head_; }
  std::map<std::string, Param> &params() { return params_; }

  Own forward(const dt_tensor *x) const {
    Own z(dt_matmul(x, at("enc.w")));
    Own zb(dt_add(z.get(), at("enc.b")));
    Own h(dt_tanh(zb.get()));
    Own hh(dt_to_device(h.get(), head_));  // stage boundary; gradients flow back through it
    Own o(dt_matmul(hh.get(), at("head.w")));
    return Own(dt_add(o.get(), at("head.b")));
  }

 private:
  void add(const std::string &name, dt_device d, Shape s, uint64_t seed) {
    Own init(seed ? dt_randn(d, seed, s.rank, s.d) : dt_zeros(d, DT_FLOAT, s.rank, s.d));
    Param p{d, s, Own(dt_require_grad(dt_mul_scalar(init.get(), 0.5f)))};
    params_.emplace(name, std::move(p));
  }
  const dt_tensor *at(const std::string &n) const { return params_.at(n).value.get(); }

  dt_device enc_, head_;
  std::map<std::string, Param> params_;
};

using Grads = std::unordered_map<std::string, Own>;

static Grads collect(std::map<std::string, Param> &params) {
  Grads g;
  for (auto &[name, p] : params) {
    Own gr(dt_grad(p.value.get()));
    if (gr) g.emplace(name, std::move(gr));
  }
  return g;
}

// sqrt(sum over parameters of sum(g^2)), reduced on `reduce`.
static float global_norm(const Grads &grads, dt_device reduce) {
  if (grads.empty()) return 0.0f;
  std::vector<Own> parts;
  parts.reserve(grads.size());
  const int64_t one[1] = {1};
  std::transform(grads.begin(), grads.end(), std::back_inserter(parts), [reduce, &one](const auto &kv) {
    Own sq(dt_mul(kv.second.get(), kv.second.get()));
    Own s(dt_sum(sq.get()));
    Own r(dt_reshape(s.get(), 1, one));
    if (dt_device_equal(dt_device_of(r.get()), reduce)) return r;
    return Own(dt_to_device(r.get(), reduce));
  });
  std::vector<dt_tensor *> raw;
  for (const auto &p : parts) raw.push_back(p.get());
  Own all(dt_cat((int)raw.size(), raw.data(), 0));
  Own total(dt_sum(all.get()));
  float v = 0.0f;
  if (dt_read_floats(total.get(), &v, 1) != 0) return 0.0f;
  return std::sqrt(v);
}

class MomentumSgd {
 public:
  MomentumSgd(std::map<std::string, Param> &params, float lr, float mu, std::optional<float> clip)
      : lr_(lr), mu_(mu), clip_(clip) {
    for (const auto &[name, p] : params)
      velocity_.emplace(name, Own(dt_zeros(dt_inner_device(p.device), DT_FLOAT, p.shape.rank, p.shape.d)));
  }

  float step(std::map<std::string, Param> &params, dt_device reduce) {
    Grads grads = collect(params);
    float norm = global_norm(grads, reduce);
    if (clip_ && norm > *clip_) {
      const float scale = *clip_ / (norm + 1e-6f);
      for (auto &[name, g] : grads) g = Own(dt_mul_scalar(g.get(), scale));
    }
    for (auto &[name, p] : params) {
      auto it = grads.find(name);
      if (it == grads.end()) continue;
      Own &v = velocity_.at(name);
      Own vm(dt_mul_scalar(v.get(), mu_));
      v = Own(dt_add(vm.get(), it->second.get()));
      Own inner(dt_inner(p.value.get()));
      Own d(dt_mul_scalar(v.get(), lr_));
      Own next(dt_sub(inner.get(), d.get()));
      p.value = Own(dt_require_grad(dt_from_inner(p.device, next.get())));
    }
    return norm;
  }

 private:
  float lr_, mu_;
  std::optional<float> clip_;
  std::map<std::string, Own> velocity_;
};

struct Sample {
  Own x, y;
};

static Sample make_sample(int step, dt_device in_dev, dt_device out_dev) {
  float x[5 * 4], y[5 * 2];
  for (int r = 0; r < 5; r++) {
    float a = 0.0f;
    for (int c = 0; c < 4; c++) {
      x[r * 4 + c] = (float)((step * 7 + r * 3 + c * 5) % 9) / 3.0f - 1.3f;
      a += x[r * 4 + c];
    }
    y[r * 2] = 2.0f * a;
    y[r * 2 + 1] = -a;
  }
  const int64_t xs[2] = {5, 4}, ys[2] = {5, 2};
  Own xi(dt_from_floats(dt_inner_device(in_dev), x, 2, xs));
  Own yi(dt_from_floats(dt_inner_device(out_dev), y, 2, ys));
  return {Own(dt_from_inner(in_dev, xi.get())), Own(dt_from_inner(out_dev, yi.get()))};
}

int main(int argc, char **argv) {
  std::optional<float> clip = 4.0f;
  if (argc > 1 && std::string(argv[1]) == "--no-clip") clip.reset();
  const dt_device reduce = dt_sim(0);

  TwoStageModel model;
  MomentumSgd opt(model.params(), 0.05f, 0.9f, clip);
  std::vector<float> norms, losses;
  for (int s = 0; s < 6; s++) {
    Sample smp = make_sample(s, model.input_device(), model.output_device());
    Own pred = model.forward(smp.x.get());
    Own loss(dt_mse_loss(pred.get(), smp.y.get()));
    dt_backward(loss.get());
    norms.push_back(opt.step(model.params(), reduce));
    float l = 0.0f;
    dt_read_floats(loss.get(), &l, 1);
    losses.push_back(l);
  }
  auto maxn = std::max_element(norms.begin(), norms.end());
  std::printf("loss %.4f -> %.4f, max grad norm %.4f (%s)\n", losses.front(), losses.back(),
              maxn == norms.end() ? 0.0f : *maxn, clip ? "clipped" : "unclipped");
  return 0;
}
