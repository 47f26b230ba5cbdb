// blind round d15 — one RLHF step: a policy, a frozen reference, and a reward model.
// run-env: REWARD_BACKEND=cpu
//
// The policy trains on autodiff<sim:0>; the frozen reference policy is plain on sim:0. The
// reward model is plain too and, with REWARD_BACKEND=cpu, is placed on the host to leave the
// accelerator to the policy. Its scorer lambda moves responses to the reward model's device,
// as it should — but the shaped reward subtracts the KL penalty (on sim:0) from the scores
// without bringing them back.
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;
constexpr int kBatch = 4;
constexpr int kPrompt = 5;
constexpr int kVocab = 6;

struct Deleter {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using T = std::unique_ptr<dt_tensor, Deleter>;

T randn(dt_device d, uint64_t seed, const Shape &s, float scale) {
  T r(dt_randn(d, seed, static_cast<int>(s.size()), s.data()));
  return T(dt_mul_scalar(r.get(), scale));
}

// Row-wise log-softmax of [kBatch, kVocab]; plain or autodiff.
T log_softmax_rows(const dt_tensor *logits) {
  T e(dt_exp(logits));
  T z(dt_sum_dim(e.get(), 1));
  T z2(dt_reshape(z.get(), 2, Shape{kBatch, 1}.data()));
  T lz(dt_log(z2.get()));
  return T(dt_sub(logits, lz.get()));
}

class PolicyHead {
 public:
  // Trainable when dev is autodiff, frozen otherwise.
  PolicyHead(dt_device dev, uint64_t seed) : dev_(dev) {
    T w = randn(dt_inner_device(dev), seed, {kPrompt, kVocab}, 0.5f);
    w_.reset(dev.autodiff ? dt_require_grad(dt_from_inner(dev, w.get())) : dt_add_scalar(w.get(), 0.0f));
  }
  T logp(const dt_tensor *prompts) const {
    T logits(dt_matmul(prompts, w_.get()));
    return log_softmax_rows(logits.get());
  }
  dt_tensor *weight() const { return w_.get(); }
  dt_device device() const { return dev_; }
  void sgd(float lr) {
    T g(dt_grad(w_.get()));
    if (!g) return;
    T inner(dt_inner(w_.get()));
    T d(dt_mul_scalar(g.get(), lr));
    T wn(dt_sub(inner.get(), d.get()));
    w_.reset(dt_require_grad(dt_from_inner(dev_, wn.get())));
  }

 private:
  dt_device dev_;
  T w_;
};

class RewardModel {
 public:
  RewardModel(dt_device dev, uint64_t seed) : dev_(dev), w_(randn(dev, seed, {kVocab, 1}, 1.0f)) {}
  dt_device device() const { return dev_; }
  // responses: [kBatch, kVocab] response distributions, on any device.
  T score(const dt_tensor *responses) const {
    T here(dt_to_device(responses, dev_));
    T s(dt_matmul(here.get(), w_.get()));
    return T(dt_tanh(s.get()));
  }

 private:
  dt_device dev_;
  T w_;
};

using Scorer = std::function<T(const dt_tensor *)>;

struct RlhfConfig {
  dt_device policy_dev;
  dt_device reward_dev;
  float kl_beta = 0.1f;
  float lr = 0.2f;
  int steps = 3;
};

RlhfConfig configure() {
  RlhfConfig c;
  c.policy_dev = dt_autodiff(dt_sim(0));
  const char *rb = std::getenv("REWARD_BACKEND");
  c.reward_dev = (rb && std::strcmp(rb, "cpu") == 0) ? dt_cpu() : dt_inner_device(c.policy_dev);
  return c;
}

T prompts_on(dt_device d, int step) {
  std::vector<float> v(kBatch * kPrompt);
  for (size_t i = 0; i < v.size(); i++) v[i] = static_cast<float>((i * 3 + static_cast<size_t>(step) * 2) % 5) / 5.0f;
  return T(dt_from_floats(d, v.data(), 2, Shape{kBatch, kPrompt}.data()));
}

class RlhfTrainer {
 public:
  explicit RlhfTrainer(const RlhfConfig &cfg)
      : cfg_(cfg), policy_(cfg.policy_dev, 11), ref_(dt_inner_device(cfg.policy_dev), 11),
        reward_(cfg.reward_dev, 12) {
    scorer_ = [this](const dt_tensor *r) { return reward_.score(r); };
  }

  // Shaped reward per sequence, plain on the policy's inner device: score - beta * KL.
  T shaped_reward(const dt_tensor *prompts_plain) const {
    T x_ad(dt_from_inner(cfg_.policy_dev, const_cast<dt_tensor *>(prompts_plain)));
    T pol_lp_ad = policy_.logp(x_ad.get());
    T pol_lp(dt_inner(pol_lp_ad.get()));
    T ref_lp = ref_.logp(prompts_plain);
    T diff(dt_sub(pol_lp.get(), ref_lp.get()));
    T probs(dt_exp(pol_lp.get()));
    T weighted(dt_mul(probs.get(), diff.get()));
    T kl(dt_sum_dim(weighted.get(), 1));
    T kl2(dt_reshape(kl.get(), 2, Shape{kBatch, 1}.data()));
    T scores = scorer_(probs.get());
    T penalty(dt_mul_scalar(kl2.get(), cfg_.kl_beta));
    return T(dt_sub(scores.get(), penalty.get())); // expect-warning: backend-mismatch
  }

  float step(int i) {
    T prompts = prompts_on(dt_inner_device(cfg_.policy_dev), i);
    T reward = shaped_reward(prompts.get());
    if (!reward) return 0.0f;
    T base(dt_mean(reward.get()));
    float mean = 0.0f;
    dt_read_floats(base.get(), &mean, 1);
    T adv(dt_add_scalar(reward.get(), -mean));
    T adv_ad(dt_from_inner(cfg_.policy_dev, adv.get()));
    T x(dt_from_inner(cfg_.policy_dev, prompts.get()));
    T lp = policy_.logp(x.get());
    T seq(dt_sum_dim(lp.get(), 1));
    T seq2(dt_reshape(seq.get(), 2, Shape{kBatch, 1}.data()));
    T obj(dt_mul(seq2.get(), adv_ad.get()));
    T m(dt_mean(obj.get()));
    T loss(dt_neg(m.get()));
    float lv = 0.0f;
    dt_read_floats(loss.get(), &lv, 1);
    dt_backward(loss.get());
    policy_.sgd(cfg_.lr);
    return lv;
  }

  const RewardModel &reward_model() const { return reward_; }

 private:
  RlhfConfig cfg_;
  PolicyHead policy_;
  PolicyHead ref_;
  RewardModel reward_;
  Scorer scorer_;
};

}  // namespace

int main() {
  RlhfConfig cfg = configure();
  RlhfTrainer trainer(cfg);
  char name[32];
  dt_device_name(trainer.reward_model().device(), name, sizeof name);
  std::printf("reward model on %s\n", name);
  for (int i = 0; i < cfg.steps; i++) std::printf("step %d: policy loss %.4f\n", i, trainer.step(i));
  return 0;
}
