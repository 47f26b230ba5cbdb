// A small experiment driver: argv[1] is a comma-separated script of stages
// (train, save, resume, eval, export) executed in order by a switch over an
// enum class.  Training runs on --device (cuda when available and asked for); "resume" rebuilds
// model and Adam state from the saved host checkpoint on the current device; "export" writes a
// plain copy on the host; periodic tasks (std::function) run every few steps.
//
//   usage: p09 SCRIPT [--device cpu|sim0|sim1|cuda] [--steps N]
// run-args: train,save,eval,resume,train,export,eval --device sim1 --steps 5
#include <dt/dt.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using T = std::unique_ptr<dt_tensor, Free>;

enum class Stage { Train, Save, Resume, Eval, Export };

static Stage stage_of(const std::string &s) {
  if (s == "train") return Stage::Train;
  if (s == "save") return Stage::Save;
  if (s == "resume") return Stage::Resume;
  if (s == "eval") return Stage::Eval;
  if (s == "export") return Stage::Export;
  throw std::invalid_argument("unknown stage '" + s + "'");
}

constexpr int64_t IN = 4, OUT = 4, R = 6;
constexpr size_t NP = 2;
using Shapes = std::array<std::vector<int64_t>, NP>;
static const Shapes kShapes = {std::vector<int64_t>{IN, OUT}, std::vector<int64_t>{OUT}};

using HostCkpt = std::map<std::string, std::vector<float>>;

class Experiment {
 public:
  explicit Experiment(dt_device plain) : plain_(plain), ad_(dt_autodiff(plain)) {
    for (size_t i = 0; i < NP; ++i) {
      T r(dt_randn(plain_, 5 + i, int(kShapes[i].size()), kShapes[i].data()));
      T s(dt_mul_scalar(r.get(), i == 0 ? 0.5f : 0.0f));
      p_[i] = T(dt_require_grad(dt_from_inner(ad_, s.get())));
      m_[i] = T(dt_zeros(plain_, DT_FLOAT, int(kShapes[i].size()), kShapes[i].data()));
      v_[i] = T(dt_zeros(plain_, DT_FLOAT, int(kShapes[i].size()), kShapes[i].data()));
    }
    tasks_.push_back({3, [this](int step) { std::printf("  [step %d] |w| = %.4f\n", step, norm(0)); }});
    tasks_.push_back({4, [this](int) { decay_lr(0.9f); }});
  }

  void run(Stage st, int steps) {
    switch (st) {
    case Stage::Train: train(steps); break;
    case Stage::Save: save(); break;
    case Stage::Resume: resume(); break;
    case Stage::Eval: std::printf("  eval loss %.5f\n", eval()); break;
    case Stage::Export: export_host(); break;
    }
  }

 private:
  struct Task {
    int every;
    std::function<void(int)> fn;
  };

  void batch(int k, std::vector<float> &x, std::vector<float> &y) const {
    x.resize(size_t(R * IN));
    y.resize(size_t(R * OUT));
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.29f * float(i + size_t(k) * x.size()));
    for (int64_t r = 0; r < R; ++r)
      for (int64_t c = 0; c < OUT; ++c) y[size_t(r * OUT + c)] = x[size_t(r * IN + (c + 1) % IN)];
  }

  T predict(const dt_tensor *x, const dt_tensor *w, const dt_tensor *b) const {
    T z(dt_matmul(x, w));
    return T(dt_add(z.get(), b));
  }

  void train(int steps) {
    std::vector<float> x, y;
    for (int s = 0; s < steps; ++s, ++step_) {
      batch(step_, x, y);
      const int64_t sh[2] = {R, IN};
      T xt(dt_from_floats(ad_, x.data(), 2, sh));
      T yt(dt_from_floats(ad_, y.data(), 2, sh));
      T out = predict(xt.get(), p_[0].get(), p_[1].get());
      T loss(dt_mse_loss(out.get(), yt.get()));
      if (dt_backward(loss.get()) != 0) throw std::runtime_error(dt_last_error());
      adam();
      for (const Task &t : tasks_)
        if ((step_ + 1) % t.every == 0) t.fn(step_);
    }
  }

  void adam() {
    ++t_;
    for (size_t i = 0; i < NP; ++i) {
      T g(dt_grad(p_[i].get()));
      if (!g) continue;
      T a(dt_mul_scalar(m_[i].get(), 0.9f)), b(dt_mul_scalar(g.get(), 0.1f));
      m_[i] = T(dt_add(a.get(), b.get()));
      T gg(dt_mul(g.get(), g.get()));
      T c(dt_mul_scalar(v_[i].get(), 0.99f)), d(dt_mul_scalar(gg.get(), 0.01f));
      v_[i] = T(dt_add(c.get(), d.get()));
      T ve(dt_add_scalar(v_[i].get(), 1e-10f));
      T lg(dt_log(ve.get()));
      T hf(dt_mul_scalar(lg.get(), 0.5f));
      T sd(dt_exp(hf.get()));
      T sde(dt_add_scalar(sd.get(), 1e-6f));
      T q(dt_div(m_[i].get(), sde.get()));
      T st(dt_mul_scalar(q.get(), lr_));
      T in(dt_inner(p_[i].get()));
      T nw(dt_sub(in.get(), st.get()));
      p_[i] = T(dt_require_grad(dt_from_inner(ad_, nw.get())));
    }
  }

  static std::vector<float> host(const dt_tensor *t) {
    std::vector<float> out(size_t(dt_numel(t)));
    dt_read_floats(t, out.data(), int64_t(out.size()));
    return out;
  }

  void save() {
    ckpt_.clear();
    for (size_t i = 0; i < NP; ++i) {
      T in(dt_inner(p_[i].get()));
      ckpt_["p" + std::to_string(i)] = host(in.get());
      ckpt_["m" + std::to_string(i)] = host(m_[i].get());
      ckpt_["v" + std::to_string(i)] = host(v_[i].get());
    }
    saved_t_ = t_;
    std::printf("  saved %zu tensors at step %d\n", ckpt_.size(), step_);
  }

  void resume() {
    if (ckpt_.empty()) {
      std::printf("  nothing to resume from\n");
      return;
    }
    for (size_t i = 0; i < NP; ++i) {
      const std::string k = std::to_string(i);
      const int rank = int(kShapes[i].size());
      T p(dt_from_floats(plain_, ckpt_.at("p" + k).data(), rank, kShapes[i].data()));
      p_[i] = T(dt_require_grad(dt_from_inner(ad_, p.get())));
      m_[i] = T(dt_from_floats(plain_, ckpt_.at("m" + k).data(), rank, kShapes[i].data()));
      v_[i] = T(dt_from_floats(plain_, ckpt_.at("v" + k).data(), rank, kShapes[i].data()));
    }
    t_ = saved_t_;
    std::printf("  resumed at adam step %d\n", t_);
  }

  float eval() const {
    std::vector<float> x, y;
    batch(10000, x, y);
    const int64_t sh[2] = {R, IN};
    dt_device where = exported_ ? dt_cpu() : plain_;
    T xt(dt_from_floats(where, x.data(), 2, sh));
    T yt(dt_from_floats(where, y.data(), 2, sh));
    T w, b;
    if (exported_) {
      w = T(dt_mul_scalar(export_[0].get(), 1.0f));
      b = T(dt_mul_scalar(export_[1].get(), 1.0f));
    } else {
      w = T(dt_inner(p_[0].get()));
      b = T(dt_inner(p_[1].get()));
    }
    if (!dt_device_equal(dt_device_of(w.get()), dt_device_of(xt.get()))) {
      xt = T(dt_to_device(xt.get(), dt_device_of(w.get())));
      yt = T(dt_to_device(yt.get(), dt_device_of(w.get())));
    }
    T out = predict(xt.get(), w.get(), b.get());
    T l(dt_mse_loss(out.get(), yt.get()));
    float lv = 0.0f;
    dt_read_floats(l.get(), &lv, 1);
    return lv;
  }

  void export_host() {
    for (size_t i = 0; i < NP; ++i) {
      T in(dt_inner(p_[i].get()));
      export_[i] = T(dt_to_device(in.get(), dt_cpu()));
    }
    exported_ = true;
    std::printf("  exported to host\n");
  }

  float norm(size_t i) const {
    T in(dt_inner(p_[i].get()));
    std::vector<float> h = host(in.get());
    double s = 0;
    for (float v : h) s += double(v) * v;
    return float(std::sqrt(s));
  }

  void decay_lr(float f) { lr_ *= f; }

  dt_device plain_, ad_;
  std::array<T, NP> p_, m_, v_, export_;
  std::vector<Task> tasks_;
  HostCkpt ckpt_;
  float lr_ = 0.05f;
  int t_ = 0, saved_t_ = 0, step_ = 0;
  bool exported_ = false;
};

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SCRIPT [--device D] [--steps N]\n", argv[0]);
    return 2;
  }
  std::string script = argv[1], devname = "sim0";
  int steps = 6;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    if (k == "--device") devname = argv[i + 1];
    else if (k == "--steps") steps = std::atoi(argv[i + 1]);
  }
  dt_device dev = dt_sim(0);
  if (devname == "cpu") dev = dt_cpu();
  else if (devname == "sim1") dev = dt_sim(1);
  else if (devname == "cuda") {
    if (dt_backend_available(DT_BACKEND_CUDA)) dev = dt_cuda(0);
    else std::fprintf(stderr, "cuda requested but not available; using sim:0\n");
  }

  try {
    Experiment ex(dev);
    std::stringstream ss(script);
    std::string item;
    while (std::getline(ss, item, ',')) {
      std::printf("stage %s\n", item.c_str());
      ex.run(stage_of(item), steps);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
