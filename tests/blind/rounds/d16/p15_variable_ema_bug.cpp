// provenance: blind round d16
// p15: a bag-of-tokens regressor written against a small autograd layer: Variable wraps an
// autodiff tensor (value() is the tracked handle, data() its plain primitive) and knows
// whether it is trainable. The pretrained embedding is frozen; the head is trained on
// autodiff<sim:0> with SGD, and an exponential moving average of the trained weights is kept
// for evaluation. Module::to() walks the trainable variables; the EMA mixes value() and
// data().
#include <dt/dt.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Own = std::unique_ptr<dt_tensor, Free>;

constexpr int64_t kVocab = 10, kDim = 4;

class Variable {
 public:
  Variable(std::string name, dt_tensor *t, bool trainable)
      : name_(std::move(name)), trainable_(trainable) {
    t_ = Own(trainable ? dt_require_grad(t) : t);
  }

  const std::string &name() const { return name_; }
  bool trainable() const { return trainable_; }
  const dt_tensor *value() const { return t_.get(); }
  Own data() const { return Own(dt_inner(t_.get())); }
  Own grad() const { return Own(dt_grad(t_.get())); }
  dt_device device() const { return dt_device_of(t_.get()); }

  // Replaces the value by a fresh leaf made from a plain tensor on this variable's device.
  void assign_plain(const dt_tensor *plain) {
    Own wrapped(dt_from_inner(device(), const_cast<dt_tensor *>(plain)));
    t_ = Own(trainable_ ? dt_require_grad(dt_detach(wrapped.get())) : dt_detach(wrapped.get()));
  }

  void move_to(dt_device d) {
    Own moved(dt_to_device(t_.get(), d));
    Own leaf(dt_detach(moved.get()));
    t_ = Own(trainable_ ? dt_require_grad(leaf.release()) : leaf.release());
  }

 private:
  std::string name_;
  bool trainable_;
  Own t_;
};

static dt_tensor *init_tensor(dt_device d, uint64_t seed, int64_t r, int64_t c, float scale) {
  const int64_t s[2] = {r, c};
  Own n(dt_randn(d, seed, 2, s));
  return dt_mul_scalar(n.get(), scale);
}

class TokenRegressor {
 public:
  explicit TokenRegressor(dt_device d)
      : device_(d),
        emb_("emb", init_tensor(d, 5, kVocab, kDim, 1.0f), /*trainable=*/false),
        w_("head.w", init_tensor(d, 6, kDim, 1, 0.3f), true),
        b_("head.b", init_tensor(d, 7, 1, 1, 0.0f), true) {}

  std::vector<Variable *> parameters() { return {&emb_, &w_, &b_}; }
  std::vector<Variable *> trainable() {
    std::vector<Variable *> out;
    for (Variable *v : parameters())
      if (v->trainable()) out.push_back(v);
    return out;
  }

  void to(dt_device d) {
    for (Variable *v : trainable()) v->move_to(d);
    device_ = d;
  }

  dt_device device() const { return device_; }

  // Mean of the embeddings of the ids, then a linear head: [batch, 1].
  Own forward(const std::vector<std::vector<int>> &batch) const {
    const int64_t n = (int64_t)batch.size();
    std::vector<float> bag((size_t)(n * kVocab), 0.0f);
    for (int64_t r = 0; r < n; r++)
      for (int id : batch[(size_t)r]) bag[(size_t)(r * kVocab + id)] += 1.0f / (float)batch[(size_t)r].size();
    const int64_t s[2] = {n, kVocab};
    Own plain(dt_from_floats(dt_inner_device(device_), bag.data(), 2, s));
    Own x(dt_from_inner(device_, plain.get()));
    Own e(dt_matmul(x.get(), emb_.value())); // expect-error: autodiff-inner-backend
    Own h(dt_tanh(e.get()));
    Own z(dt_matmul(h.get(), w_.value()));
    return Own(dt_add(z.get(), b_.value()));
  }

 private:
  dt_device device_;
  Variable emb_, w_, b_;
};

class Sgd {
 public:
  explicit Sgd(float lr) : lr_(lr) {}
  void step(const std::vector<Variable *> &vars) {
    for (Variable *v : vars) {
      Own g = v->grad();
      if (!g) continue;
      Own cur = v->data();
      Own d(dt_mul_scalar(g.get(), lr_));
      Own next(dt_sub(cur.get(), d.get()));
      v->assign_plain(next.get());
    }
  }

 private:
  float lr_;
};

// shadow <- decay * shadow + (1 - decay) * weight, one shadow per trained variable.
class Ema {
 public:
  Ema(const std::vector<Variable *> &vars, float decay) : decay_(decay) {
    for (const Variable *v : vars) shadow_.emplace(v->name(), v->data());
  }

  void update(const std::vector<Variable *> &vars) {
    for (const Variable *v : vars) {
      auto it = shadow_.find(v->name());
      if (it == shadow_.end()) continue;
      Own kept(dt_mul_scalar(it->second.get(), decay_));
      Own fresh(dt_mul_scalar(v->value(), 1.0f - decay_));
      it->second = Own(dt_add(kept.get(), fresh.get())); // expect-error: autodiff-expected
    }
    ++updates_;
  }

  std::optional<std::vector<float>> read(const std::string &name) const {
    auto it = shadow_.find(name);
    if (it == shadow_.end() || !it->second) return std::nullopt;
    std::vector<float> out((size_t)dt_numel(it->second.get()));
    if (dt_read_floats(it->second.get(), out.data(), (int64_t)out.size()) != 0) return std::nullopt;
    return out;
  }
  int updates() const { return updates_; }

 private:
  float decay_;
  int updates_ = 0;
  std::unordered_map<std::string, Own> shadow_;
};

static void make_batch(int step, std::vector<std::vector<int>> &ids, std::vector<float> &y) {
  ids.assign(4, {});
  y.assign(4, 0.0f);
  for (int r = 0; r < 4; r++) {
    int len = 2 + (step + r) % 3;
    for (int k = 0; k < len; k++) ids[(size_t)r].push_back((step * 3 + r * 7 + k * 5) % (int)kVocab);
    y[(size_t)r] = (float)(ids[(size_t)r][0] % 3) - 1.0f;
  }
}

int main() {
  TokenRegressor model(dt_autodiff(dt_cpu()));  // the pretrained embedding is loaded on the host
  model.to(dt_autodiff(dt_sim(0)));
  Sgd opt(0.1f);
  Ema ema(model.trainable(), 0.9f);

  float last = 0.0f;
  for (int step = 0; step < 6; step++) {
    std::vector<std::vector<int>> ids;
    std::vector<float> ys;
    make_batch(step, ids, ys);
    const int64_t s[2] = {4, 1};
    Own yp(dt_from_floats(dt_inner_device(model.device()), ys.data(), 2, s));
    Own y(dt_from_inner(model.device(), yp.get()));
    Own pred = model.forward(ids);
    Own loss(dt_mse_loss(pred.get(), y.get()));
    dt_backward(loss.get());
    opt.step(model.trainable());
    ema.update(model.trainable());
    if (loss) dt_read_floats(loss.get(), &last, 1);
  }
  auto w = ema.read("head.w");
  std::printf("loss %.4f, %d ema updates, ema head.w[0] = %.4f\n", last, ema.updates(),
              w ? (*w)[0] : 0.0f);
  return 0;
}
