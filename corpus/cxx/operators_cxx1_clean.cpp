// provenance: blind round cxx1
// A value-semantics Tensor wrapper with overloaded operators (+ wraps dt_add, * wraps
// dt_matmul, - wraps dt_sub, unary - wraps dt_neg), copy and move constructors that share the
// handle through a reference count kept by the runtime (a copy is a dt_add_scalar(.., 0)),
// a class template Pack<N> holding N tensors, and overloaded forward() functions. The same
// operators are used on three devices — cpu, sim:1 and autodiff<sim:0> — but never mixed in
// one expression; cross-device values are moved with .to(). Clean.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <initializer_list>
#include <utility>
#include <vector>

namespace tt {

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *h) : h_(h) {}
  Tensor(const Tensor &o) : h_(o.h_ ? dt_add_scalar(o.h_, 0.0f) : nullptr) {}
  Tensor(Tensor &&o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Tensor &operator=(Tensor o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  ~Tensor() { dt_free(h_); }

  static Tensor full(dt_device d, float v, std::initializer_list<int64_t> shape) {
    std::vector<int64_t> s(shape);
    return Tensor(dt_full(d, v, static_cast<int>(s.size()), s.data()));
  }
  static Tensor randn(dt_device d, uint64_t seed, std::initializer_list<int64_t> shape) {
    std::vector<int64_t> s(shape);
    return Tensor(dt_randn(d, seed, static_cast<int>(s.size()), s.data()));
  }

  dt_tensor *get() const { return h_; }
  dt_device device() const { return dt_device_of(h_); }
  Tensor to(dt_device d) const { return Tensor(dt_to_device(h_, d)); }
  Tensor relu() const { return Tensor(dt_relu(h_)); }
  Tensor t() const { return Tensor(dt_transpose(h_)); }
  Tensor mean() const { return Tensor(dt_mean(h_)); }
  Tensor operator-() const { return Tensor(dt_neg(h_)); }
  Tensor &operator+=(const Tensor &o) {
    dt_tensor *n = dt_add(h_, o.h_);
    dt_free(h_);
    h_ = n;
    return *this;
  }
  float item() const {
    float v = 0.0f;
    dt_read_floats(h_, &v, 1);
    return v;
  }

 private:
  dt_tensor *h_ = nullptr;
};

inline Tensor operator+(const Tensor &a, const Tensor &b) { return Tensor(dt_add(a.get(), b.get())); }
inline Tensor operator-(const Tensor &a, const Tensor &b) { return Tensor(dt_sub(a.get(), b.get())); }
inline Tensor operator*(const Tensor &a, const Tensor &b) { return Tensor(dt_matmul(a.get(), b.get())); }
inline Tensor operator*(const Tensor &a, float s) { return Tensor(dt_mul_scalar(a.get(), s)); }
inline Tensor operator*(float s, const Tensor &a) { return a * s; }

template <size_t N>
class Pack {
 public:
  Pack(dt_device dev, int64_t width) : dev_(dev) {
    for (size_t i = 0; i < N; ++i) items_[i] = Tensor::randn(dev_, 100 + i, {width, width});
  }
  const Tensor &operator[](size_t i) const { return items_[i]; }
  Tensor &operator[](size_t i) { return items_[i]; }
  constexpr size_t size() const { return N; }
  dt_device device() const { return dev_; }
  Pack moved(dt_device d) const {
    Pack out(*this);
    for (auto &t : out.items_) t = t.to(d);
    out.dev_ = d;
    return out;
  }

 private:
  dt_device dev_;
  std::array<Tensor, N> items_;
};

template <size_t N>
Tensor forward(const Pack<N> &p, const Tensor &x) {
  Tensor h = x;
  for (size_t i = 0; i < p.size(); ++i) h = (h * p[i]).relu();
  return h;
}

Tensor forward(const Tensor &w, const Tensor &x) { return (x * w).relu(); }

Tensor forward(const Tensor &w, const Tensor &b, const Tensor &x) { return x * w + b; }

}  // namespace tt

namespace {

float host_part() {
  const dt_device host = dt_cpu();
  tt::Tensor x = tt::Tensor::full(host, 0.5f, {2, 3});
  tt::Tensor w = tt::Tensor::randn(host, 1, {3, 3});
  tt::Tensor b = tt::Tensor::full(host, 0.1f, {1, 3});
  tt::Tensor y = tt::forward(w, b, x);
  tt::Tensor z = tt::forward(w, y);
  z += y;
  tt::Tensor d = -(z - y) * 2.0f;
  return d.mean().item();
}

float sim_part() {
  const dt_device dev = dt_sim(1);
  tt::Pack<3> pack(dev, 4);
  tt::Tensor x = tt::Tensor::full(dev, 1.0f, {2, 4});
  tt::Tensor h = tt::forward(pack, x);
  tt::Tensor gram = h * h.t();
  return gram.mean().item();
}

float moved_part() {
  // A pack built on the host is moved to sim:1 as a whole and then used with sim:1 data.
  tt::Pack<2> host_pack(dt_cpu(), 3);
  tt::Pack<2> dev_pack = host_pack.moved(dt_sim(1));
  tt::Tensor x = tt::Tensor::full(dt_sim(1), 0.3f, {1, 3});
  tt::Tensor y = tt::forward(dev_pack, x);
  tt::Tensor yh = tt::forward(host_pack, x.to(dt_cpu()));
  tt::Tensor diff = y.to(dt_cpu()) - yh;
  return diff.mean().item();
}

float autodiff_part() {
  const dt_device ad = dt_autodiff(dt_sim(0));
  tt::Tensor w(dt_require_grad(dt_randn(ad, 5, 2, std::array<int64_t, 2>{3, 1}.data())));
  tt::Tensor x = tt::Tensor::full(ad, 1.0f, {4, 3});
  tt::Tensor target = tt::Tensor::full(ad, 0.0f, {4, 1});
  tt::Tensor pred = x * w;
  tt::Tensor loss(dt_mse_loss(pred.get(), target.get()));
  dt_backward(loss.get());
  tt::Tensor g(dt_grad(w.get()));
  tt::Tensor inner(dt_inner(w.get()));
  tt::Tensor updated = inner - g * 0.1f;
  return updated.mean().item() + loss.item();
}

}  // namespace

int main() {
  float a = host_part();
  float b = sim_part();
  float c = moved_part();
  float d = autodiff_part();
  std::printf("%.4f %.4f %.4f %.4f\n", a, b, c, d);
  return 0;
}
