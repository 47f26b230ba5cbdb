// corpus/cxx/module_list_move_clean.cpp — a Sequential of virtual modules (Linear, Tanh, a
// Residual around a Linear) in a std::vector<std::unique_ptr<Module>>. parameters() collects
// pointers to every module's weights through the virtual parameters(); to() moves each one
// with a range-for over the vector parameters() returns (a temporary), once per parameter.
// forward() walks the modules with a `const auto &` whose body branches (a trace flag) before
// it calls the module. Clean: LayerNorm lists its running scale with its parameters, so
// to() moves it too and every forward on the accelerator finds all its operands there.
// run-args: 2
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

constexpr int64_t kWidth = 4;

class Module {
 public:
  virtual ~Module() = default;
  virtual Tensor forward(const dt_tensor *x) const = 0;
  virtual void parameters(std::vector<Tensor *> &out) { (void)out; }
  virtual const char *name() const = 0;
};

class Linear : public Module {
 public:
  Linear(dt_device d, uint64_t seed) {
    const int64_t s[2] = {kWidth, kWidth};
    Tensor r(dt_randn(d, seed, 2, s));
    w_.reset(dt_mul_scalar(r.get(), 0.3f));
  }
  Tensor forward(const dt_tensor *x) const override { return Tensor(dt_matmul(x, w_.get())); }
  void parameters(std::vector<Tensor *> &out) override { out.push_back(&w_); }
  const char *name() const override { return "linear"; }

 private:
  Tensor w_;
};

class Tanh : public Module {
 public:
  Tensor forward(const dt_tensor *x) const override { return Tensor(dt_tanh(x)); }
  const char *name() const override { return "tanh"; }
};

class Residual : public Module {
 public:
  explicit Residual(std::unique_ptr<Module> inner) : inner_(std::move(inner)) {}
  Tensor forward(const dt_tensor *x) const override {
    Tensor y = inner_->forward(x);
    return Tensor(dt_add(x, y.get()));
  }
  void parameters(std::vector<Tensor *> &out) override { inner_->parameters(out); }
  const char *name() const override { return "residual"; }

 private:
  std::unique_ptr<Module> inner_;
};

class LayerNorm : public Module {
 public:
  explicit LayerNorm(dt_device d) {
    const int64_t s[1] = {kWidth};
    gain_.reset(dt_full(d, 1.0f, 1, s));
    running_.reset(dt_full(d, 0.5f, 1, s));
  }
  Tensor forward(const dt_tensor *x) const override {
    Tensor g(dt_mul(x, gain_.get()));
    return Tensor(dt_mul(g.get(), running_.get()));
  }
  void parameters(std::vector<Tensor *> &out) override {
    out.push_back(&gain_);
    out.push_back(&running_);
  }
  const char *name() const override { return "layernorm"; }

 private:
  Tensor gain_, running_;
};

class Sequential {
 public:
  void add(std::unique_ptr<Module> m) { mods_.push_back(std::move(m)); }
  std::vector<Tensor *> parameters() {
    std::vector<Tensor *> ps;
    for (auto &m : mods_) m->parameters(ps);
    return ps;
  }
  void to(dt_device d) {
    for (Tensor *p : parameters()) p->reset(dt_to_device(p->get(), d));
  }
  Tensor forward(const dt_tensor *x, bool trace) const {
    Tensor h(dt_to_device(x, dt_device_of(x)));
    for (const auto &m : mods_) {
      if (trace) std::printf("  %s\n", m->name());
      h = m->forward(h.get());
    }
    return h;
  }

 private:
  std::vector<std::unique_ptr<Module>> mods_;
};

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 3;
  const bool trace = std::getenv("TRACE_MODULES") != nullptr;
  Sequential net;
  net.add(std::make_unique<Linear>(dt_cpu(), 11u));
  net.add(std::make_unique<Tanh>());
  net.add(std::make_unique<Residual>(std::make_unique<Linear>(dt_cpu(), 12u)));
  net.add(std::make_unique<LayerNorm>(dt_cpu()));
  net.to(dt_sim(0));
  std::printf("%zu parameters moved\n", net.parameters().size());
  const int64_t s[2] = {2, kWidth};
  for (int k = 0; k < steps; ++k) {
    Tensor x(dt_full(dt_sim(0), 0.1f * static_cast<float>(k + 1), 2, s));
    Tensor y = net.forward(x.get(), trace);
    float out[2 * kWidth];
    Tensor host(dt_to_device(y.get(), dt_cpu()));
    dt_read_floats(host.get(), out, 2 * kWidth);
    std::printf("step %d: %.4f\n", k, out[0]);
  }
  return 0;
}
