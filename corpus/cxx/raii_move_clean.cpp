// provenance: blind round cxx2
// raii_move_clean.cpp — a value-semantics Tensor class (copy = shared handle via a cheap
// device-preserving copy, move = steal), std::swap of whole models between devices, a
// std::vector<Tensor> optimizer state resized with emplace_back, and Tensor::to() returning a
// new tensor. Models are swapped and moved, but every operation sees operands of one device.
// Correct on every input.
#include <dt/dt.h>

#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor* t) : t_(t) {}
  Tensor(const Tensor& o) : t_(o.t_ ? dt_to_device(o.t_, dt_device_of(o.t_)) : nullptr) {}
  Tensor(Tensor&& o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  Tensor& operator=(Tensor o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  ~Tensor() { dt_free(t_); }

  Tensor to(dt_device d) const { return Tensor(dt_to_device(t_, d)); }
  dt_device device() const { return dt_device_of(t_); }
  const dt_tensor* get() const { return t_; }
  float item() const {
    float v = 0.0f;
    if (t_) dt_read_floats(t_, &v, 1);
    return v;
  }
  friend Tensor operator+(const Tensor& a, const Tensor& b) { return Tensor(dt_add(a.t_, b.t_)); }
  friend Tensor operator-(const Tensor& a, const Tensor& b) { return Tensor(dt_sub(a.t_, b.t_)); }
  friend Tensor operator*(const Tensor& a, float s) { return Tensor(dt_mul_scalar(a.t_, s)); }
  friend Tensor mm(const Tensor& a, const Tensor& b) { return Tensor(dt_matmul(a.t_, b.t_)); }
  friend Tensor tr(const Tensor& a) { return Tensor(dt_transpose(a.t_)); }

 private:
  dt_tensor* t_ = nullptr;
};

struct Model {
  std::string tag;
  Tensor w;
  std::vector<Tensor> momentum;

  Model(std::string t, dt_device d, uint64_t seed) : tag(std::move(t)) {
    std::array<int64_t, 2> s{3, 3};
    w = Tensor(dt_randn(d, seed, 2, s.data())) * 0.2f;
  }
  Model to(dt_device d) const {
    Model m = *this;
    m.w = w.to(d);
    for (Tensor& v : m.momentum) v = v.to(d);
    return m;
  }
  void sgd_momentum(const Tensor& x, float lr) {
    if (momentum.empty()) momentum.emplace_back(w * 0.0f);
    Tensor p = mm(x, w);
    Tensor g = mm(tr(x), p);
    momentum[0] = momentum[0] * 0.9f + g;
    w = w - momentum[0] * lr;
  }
};

struct Snapshot {
  std::string tag;
  std::vector<float> w;
};

static Snapshot snapshot(const Model& m) {
  Snapshot s{m.tag, std::vector<float>(9)};
  Tensor host = m.w.to(dt_cpu());
  dt_read_floats(host.get(), s.w.data(), static_cast<int64_t>(s.w.size()));
  return s;
}

static Model restore(const Snapshot& s, dt_device d) {
  Model m(s.tag, d, 0u);
  std::array<int64_t, 2> sh{3, 3};
  m.w = Tensor(dt_from_floats(d, s.w.data(), 2, sh.data()));
  return m;
}

// average of several models, each first brought to the target device
static Tensor ensemble_mean(const std::vector<Model>& models, dt_device d) {
  Tensor acc;
  for (const Model& m : models) {
    Tensor w = m.w.to(d);
    acc = acc.get() ? acc + w : std::move(w);
  }
  return acc * (1.0f / static_cast<float>(models.size()));
}

static Tensor batch_on(dt_device d, int k) {
  std::vector<float> v(6);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((static_cast<int>(i) + k) % 4) * 0.3f;
  std::array<int64_t, 2> s{2, 3};
  return Tensor(dt_from_floats(d, v.data(), 2, s.data()));
}

// a tiny registry: models keyed by name, moved in and out by value
class Registry {
 public:
  void put(Model m) { models_.push_back(std::move(m)); }
  Model take(const std::string& tag) {
    for (size_t i = 0; i < models_.size(); ++i)
      if (models_[i].tag == tag) {
        Model m = std::move(models_[i]);
        models_.erase(models_.begin() + static_cast<std::ptrdiff_t>(i));
        return m;
      }
    return Model(tag, dt_cpu(), 99u);
  }
  size_t size() const { return models_.size(); }

 private:
  std::vector<Model> models_;
};

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 4;
  Model a("a", dt_sim(0), 1u);
  Model b("b", dt_sim(1), 2u);
  for (int s = 0; s < steps; ++s) {
    a.sgd_momentum(batch_on(a.w.device(), s), 0.05f);
    b.sgd_momentum(batch_on(b.w.device(), s), 0.05f);
  }
  std::swap(a, b);  // a now lives on sim:1, b on sim:0; each carries its own state
  for (int s = 0; s < steps; ++s) {
    a.sgd_momentum(batch_on(a.w.device(), s + 10), 0.05f);
    b.sgd_momentum(batch_on(b.w.device(), s + 10), 0.05f);
  }
  Model merged = b.to(dt_sim(1));
  Tensor avg = (a.w + merged.w) * 0.5f;
  Tensor host = avg.to(dt_cpu());
  Tensor d = host - a.w.to(dt_cpu());
  Tensor total(dt_sum(d.get()));
  std::printf("models %s/%s merged on sim:1, drift %.5f\n", a.tag.c_str(), b.tag.c_str(), total.item());
  std::vector<Model> zoo;
  zoo.push_back(std::move(a));
  zoo.push_back(merged.to(dt_cpu()));
  for (const Model& m : zoo) {
    Tensor n(dt_sum(m.w.get()));
    std::printf("%s: sum %.5f, %zu state tensors\n", m.tag.c_str(), n.item(), m.momentum.size());
  }
  Registry reg;
  reg.put(Model("r0", dt_sim(1), 5u));
  reg.put(Model("r1", dt_cpu(), 6u));
  Model r0 = reg.take("r0");
  r0.sgd_momentum(batch_on(r0.w.device(), 1), 0.05f);
  Model r9 = reg.take("missing");
  r9.sgd_momentum(batch_on(r9.w.device(), 2), 0.05f);
  std::printf("registry left %zu, r0 on %s\n", reg.size(), r0.w.device().backend == DT_BACKEND_SIM ? "sim" : "host");
  Snapshot snap = snapshot(zoo.front());
  Model again = restore(snap, dt_sim(0));
  again.sgd_momentum(batch_on(dt_sim(0), 3), 0.01f);
  zoo.push_back(std::move(again));
  Tensor mean = ensemble_mean(zoo, dt_sim(1));
  Tensor ms(dt_sum(mean.get()));
  std::printf("ensemble of %zu on sim:1: %.5f\n", zoo.size(), ms.item());
  return 0;
}
