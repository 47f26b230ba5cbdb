// provenance: blind round d12
// run-args: --resume --device sim1
/* Preemption-safe training: a Trainer owns its parameters and momentum buffers, can write
 * a host checkpoint and rebuild itself from one. Failures of dt calls become exceptions. */
#include <dt/dt.h>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

class DtError : public std::runtime_error {
 public:
  explicit DtError(const std::string &what) : std::runtime_error(what) {}
};

static dt_tensor *check(dt_tensor *t, const char *what) {
  if (!t) throw DtError(std::string(what) + ": " + dt_last_error());
  return t;
}

struct HostCheckpoint {
  std::map<std::string, dt_tensor *> tensors;  // all on cpu
  int step = 0;
  ~HostCheckpoint() {
    for (auto &kv : tensors) dt_free(kv.second);
  }
};

class Trainer {
 public:
  Trainer(dt_device base, int in, int out) : base_(base), ad_(dt_autodiff(base)), in_(in), out_(out) {
    const int64_t ws[2] = {in, out}, bs[1] = {out};
    dt_tensor *r = check(dt_randn(base, 99, 2, ws), "init");
    set_param("w", check(dt_require_grad(dt_from_inner(ad_, r)), "wrap w"));
    dt_free(r);
    set_param("b", check(dt_require_grad(dt_zeros(ad_, DT_FLOAT, 1, bs)), "init b"));
    momentum_["w"] = check(dt_zeros(base, DT_FLOAT, 2, ws), "mom w");
    momentum_["b"] = check(dt_zeros(base, DT_FLOAT, 1, bs), "mom b");
  }
  Trainer(dt_device base, const HostCheckpoint &ck) : base_(base), ad_(dt_autodiff(base)) {
    for (const auto &[name, host] : ck.tensors) {
      if (name.rfind("param.", 0) == 0) {
        dt_tensor *moved = dt_to_device(host, ad_); // expect-error: autodiff-expected
        set_param(name.substr(6), check(dt_require_grad(check(moved, "restore param")), "grad"));
      } else if (name.rfind("mom.", 0) == 0) {
        momentum_[name.substr(4)] = check(dt_to_device(host, base_), "restore momentum");
      }
    }
    step_ = ck.step;
    in_ = (int)dt_dim(params_.at("w"), 0);
    out_ = (int)dt_dim(params_.at("w"), 1);
  }
  ~Trainer() {
    for (auto &kv : params_) dt_free(kv.second);
    for (auto &kv : momentum_) dt_free(kv.second);
  }
  Trainer(const Trainer &) = delete;
  Trainer &operator=(const Trainer &) = delete;

  float train_step(const std::vector<float> &x, const std::vector<float> &y, int batch) {
    const int64_t xs[2] = {batch, in_}, ys[2] = {batch, out_};
    dt_tensor *xt = check(dt_from_floats(ad_, x.data(), 2, xs), "x");
    dt_tensor *yt = check(dt_from_floats(ad_, y.data(), 2, ys), "y");
    dt_tensor *h = check(dt_matmul(xt, params_.at("w")), "matmul");
    dt_tensor *o = check(dt_add(h, params_.at("b")), "bias");
    dt_tensor *loss = check(dt_mse_loss(o, yt), "loss");
    float lv = 0;
    dt_read_floats(loss, &lv, 1);
    if (dt_backward(loss) != 0) throw DtError(dt_last_error());
    for (auto &[name, p] : params_) {
      dt_tensor *g = dt_grad(p);
      if (!g) continue;
      dt_tensor *&mom = momentum_.at(name);
      dt_tensor *m9 = check(dt_mul_scalar(mom, 0.9f), "m9");
      dt_tensor *mn = check(dt_add(m9, g), "mom add");
      dt_tensor *st = check(dt_mul_scalar(mn, 0.05f), "lr");
      dt_tensor *cur = check(dt_inner(p), "inner");
      dt_tensor *nx = check(dt_sub(cur, st), "sub");
      dt_free(p);
      p = check(dt_require_grad(dt_from_inner(ad_, nx)), "rewrap");
      dt_free(mom);
      mom = mn;
      dt_free(g); dt_free(m9); dt_free(st); dt_free(cur); dt_free(nx);
    }
    dt_free(xt); dt_free(yt); dt_free(h); dt_free(o); dt_free(loss);
    step_++;
    return lv;
  }

  void save(HostCheckpoint &ck) const {
    for (const auto &[name, p] : params_) {
      dt_tensor *in = check(dt_inner(p), "inner");
      ck.tensors["param." + name] = check(dt_to_device(in, dt_cpu()), "to host");
      dt_free(in);
    }
    for (const auto &[name, m] : momentum_)
      ck.tensors["mom." + name] = check(dt_to_device(m, dt_cpu()), "to host");
    ck.step = step_;
  }
  int step() const { return step_; }
  int in() const { return in_; }
  int out() const { return out_; }

 private:
  void set_param(const std::string &n, dt_tensor *t) {
    auto it = params_.find(n);
    if (it != params_.end()) dt_free(it->second);
    params_[n] = t;
  }
  dt_device base_, ad_;
  int in_ = 0, out_ = 0, step_ = 0;
  std::map<std::string, dt_tensor *> params_;
  std::map<std::string, dt_tensor *> momentum_;
};

static void batch(int step, int in, int out, int n, std::vector<float> &x, std::vector<float> &y) {
  x.assign((size_t)n * in, 0.0f);
  y.assign((size_t)n * out, 0.0f);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < in; j++) x[i * in + j] = (float)((i * 3 + j * 7 + step) % 13) / 6.5f - 1.0f;
    for (int k = 0; k < out; k++) y[i * out + k] = x[i * in + k % in] * 0.5f;
  }
}

int main(int argc, char **argv) {
  bool resume = false;
  dt_device base = dt_sim(0);
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--resume")) resume = true;
    if (!std::strcmp(argv[i], "--device") && i + 1 < argc) {
      base = !std::strcmp(argv[i + 1], "sim1") ? dt_sim(1) : !std::strcmp(argv[i + 1], "cpu") ? dt_cpu() : dt_sim(0);
      i++;
    }
  }
  try {
    std::vector<float> x, y;
    HostCheckpoint ck;
    {
      Trainer first(base, 4, 2);
      for (int s = 0; s < 10; s++) {
        batch(s, 4, 2, 8, x, y);
        float l = first.train_step(x, y, 8);
        if (s % 3 == 0) std::printf("step %d loss %.4f\n", first.step(), l);
      }
      first.save(ck);
      std::printf("checkpointed at step %d (%zu tensors)\n", ck.step, ck.tensors.size());
    }
    // preempted: the job comes back, possibly on another device
    std::unique_ptr<Trainer> t = std::make_unique<Trainer>(base, ck);
    int extra = resume ? 10 : 4;
    for (int s = 0; s < extra; s++) {
      batch(t->step(), t->in(), t->out(), 8, x, y);
      float l = t->train_step(x, y, 8);
      if (s % 3 == 0) std::printf("resumed step %d loss %.4f\n", t->step(), l);
    }
  } catch (const DtError &e) {
    std::fprintf(stderr, "fatal: %s\n", e.what());
    return 1;
  }
  return 0;
}
