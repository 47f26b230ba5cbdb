// Multi-task learning with homoscedastic-uncertainty weighting: a shared trunk on
// autodiff<sim:0>, task heads on their own autodiff devices (kept in an unordered_map), features
// crossing to each head with gradients flowing back, learned log-variances on the trunk, AdamW
// state created lazily on each gradient's device, and a head migrated mid-run with its state.
// run-args: --epochs 5 --migrate-at 2 --migrate-to cpu
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int64_t IN = 5, FEAT = 6, B = 4;

struct Del { void operator()(dt_tensor *t) const { dt_free(t); } };
using T = std::unique_ptr<dt_tensor, Del>;

struct Slot {
  T value, tracked;
};

class AdamW {
 public:
  void step(const std::string &name, Slot &p, float lr) {
    T g(dt_grad(p.tracked.get()));
    p.tracked.reset();
    if (!g) return;
    auto &st = state_[name];
    if (!st.first) {
      st.first = T(dt_mul_scalar(g.get(), 0.0f));
      st.second = T(dt_mul_scalar(g.get(), 0.0f));
    }
    st.first = T(dt_add(T(dt_mul_scalar(st.first.get(), 0.9f)).get(), T(dt_mul_scalar(g.get(), 0.1f)).get()));
    st.second = T(dt_add(T(dt_mul_scalar(st.second.get(), 0.99f)).get(), T(dt_mul_scalar(T(dt_mul(g.get(), g.get())).get(), 0.01f)).get()));
    T rms(dt_add_scalar(T(dt_exp(T(dt_mul_scalar(T(dt_log(T(dt_add_scalar(st.second.get(), 1e-10f)).get())).get(), 0.5f)).get())).get(), 1e-5f));
    T upd(dt_div(st.first.get(), rms.get()));
    T decayed(dt_mul_scalar(p.value.get(), 1.0f - lr * 0.01f));
    p.value = T(dt_sub(decayed.get(), T(dt_mul_scalar(upd.get(), lr)).get()));
  }
  void move_state(const std::string &prefix, dt_device d) {
    for (auto &kv : state_)
      if (kv.first.compare(0, prefix.size(), prefix) == 0 && kv.second.first) {
        kv.second.first = T(dt_to_device(kv.second.first.get(), d));
        kv.second.second = T(dt_to_device(kv.second.second.get(), d));
      }
  }
 private:
  std::map<std::string, std::pair<T, T>> state_;
};

struct TaskHead {
  dt_device ad;
  Slot w;
  int outputs;
  TaskHead(dt_device a, int outs, uint64_t seed) : ad(a), outputs(outs) {
    int64_t s[2] = {FEAT, outs};
    w.value = T(dt_mul_scalar(dt_randn(dt_inner_device(a), seed, 2, s), 0.3f));
  }
  T loss(dt_tensor *feat, const std::vector<float> &target) {
    int64_t ts[2] = {B, outputs};
    w.tracked = T(dt_require_grad(dt_from_inner(ad, w.value.get())));
    T pred(dt_matmul(feat, w.tracked.get()));
    T y(dt_from_floats(ad, target.data(), 2, ts));
    return T(dt_mse_loss(pred.get(), y.get()));
  }
  void to(dt_device inner) {
    ad = dt_autodiff(inner);
    w.value = T(dt_to_device(w.value.get(), inner));
  }
};

dt_device named(const char *s) {
  if (!std::strcmp(s, "cpu")) return dt_cpu();
  if (!std::strcmp(s, "sim1")) return dt_sim(1);
  if (!std::strcmp(s, "cuda") && dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return dt_sim(0);
}

}  // namespace

int main(int argc, char **argv) {
  int epochs = 3, migrate_at = -1;
  dt_device migrate_to = dt_cpu();
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--migrate-at")) migrate_at = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--migrate-to")) migrate_to = named(argv[i + 1]);
  }
  dt_device trunk_ad = dt_autodiff(dt_sim(0));
  int64_t ts[2] = {IN, FEAT}, one[1] = {1};
  Slot trunk;
  trunk.value = T(dt_mul_scalar(dt_randn(dt_sim(0), 1, 2, ts), 0.4f));
  std::unordered_map<std::string, std::unique_ptr<TaskHead>> heads;
  heads["depth"] = std::make_unique<TaskHead>(dt_autodiff(dt_sim(1)), 1, 11);
  heads["segment"] = std::make_unique<TaskHead>(dt_autodiff(dt_cpu()), 3, 12);
  heads["classify"] = std::make_unique<TaskHead>(trunk_ad, 2, 13);
  std::map<std::string, Slot> log_var;  // learned, on the trunk's device
  for (auto &kv : heads) log_var[kv.first].value = T(dt_zeros(dt_sim(0), DT_FLOAT, 1, one));
  AdamW opt;
  auto targets_for = [](const TaskHead &h, int step) {
    std::vector<float> y((size_t)(B * h.outputs));
    for (size_t i = 0; i < y.size(); i++) y[i] = (float)(((int)i + step) % (h.outputs + 1)) / (float)(h.outputs + 1);
    return y;
  };
  for (int e = 0; e < epochs; e++) {
    if (e == migrate_at) {
      heads["depth"]->to(migrate_to);
      opt.move_state("depth.", migrate_to);
    }
    float total = 0.0f;
    for (int step = 0; step < 3; step++) {
      std::vector<float> xh(B * IN);
      for (size_t i = 0; i < xh.size(); i++) xh[i] = (float)(((int)i * 3 + step + e) % 7) / 7.0f - 0.5f;
      int64_t xs[2] = {B, IN};
      T x(dt_from_floats(trunk_ad, xh.data(), 2, xs));
      trunk.tracked = T(dt_require_grad(dt_from_inner(trunk_ad, trunk.value.get())));
      T feat(dt_tanh(T(dt_matmul(x.get(), trunk.tracked.get())).get()));
      T loss(dt_zeros(trunk_ad, DT_FLOAT, 1, one));
      for (auto &kv : heads) {
        TaskHead &h = *kv.second;
        T f(dt_to_device(feat.get(), h.ad));
        T lk = h.loss(f.get(), targets_for(h, step));
        T back(dt_to_device(lk.get(), trunk_ad));
        Slot &s = log_var[kv.first];
        s.tracked = T(dt_require_grad(dt_from_inner(trunk_ad, s.value.get())));
        T prec(dt_exp(T(dt_neg(s.tracked.get())).get()));
        T term(dt_add(T(dt_mul(prec.get(), back.get())).get(), s.tracked.get()));
        loss = T(dt_add(loss.get(), term.get()));
      }
      T scalar(dt_sum(loss.get()));
      float lv = 0.0f;
      dt_read_floats(scalar.get(), &lv, 1);
      total += lv;
      dt_backward(scalar.get());
      opt.step("trunk", trunk, 0.02f);
      for (auto &kv : heads) opt.step(kv.first + ".w", kv.second->w, 0.02f);
      for (auto &kv : log_var) opt.step("logvar." + kv.first, kv.second, 0.01f);
    }
    std::printf("epoch %d loss %.4f\n", e, total / 3.0f);
  }
  for (auto &kv : log_var) {
    float v = 0.0f;
    dt_read_floats(kv.second.value.get(), &v, 1);
    std::printf("%s sigma^2 %.4f\n", kv.first.c_str(), std::exp(v));
  }
  return 0;
}
