// provenance: blind round cxx1
// Operator overloading on a thin handle class: `a * b` is dt_matmul, `a + b` is dt_add.
// An attention-like block keeps its query projection on sim:0 and its key projection on
// sim:1 (a pipeline split gone wrong); scores = q * k.t() mixes the two ordinals inside
// operator*, which is also used correctly elsewhere: device-mismatch at the dt_matmul line.
#include <dt/dt.h>

#include <cstdio>
#include <utility>

namespace ops {

class T {
 public:
  T() = default;
  explicit T(dt_tensor *h) : h_(h) {}
  T(const T &) = delete;
  T &operator=(const T &) = delete;
  T(T &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  T &operator=(T &&o) noexcept {
    if (this != &o) {
      dt_free(h_);
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ~T() { dt_free(h_); }
  dt_tensor *raw() const { return h_; }
  T transposed() const { return T(dt_transpose(h_)); }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  dt_tensor *h_ = nullptr;
};

T operator*(const T &a, const T &b) { return T(dt_matmul(a.raw(), b.raw())); } // expect-error: device-mismatch
T operator+(const T &a, const T &b) { return T(dt_add(a.raw(), b.raw())); }

T randn(dt_device d, uint64_t seed, int64_t r, int64_t c) {
  const int64_t shape[] = {r, c};
  return T(dt_randn(d, seed, 2, shape));
}

}  // namespace ops

class Attention {
 public:
  Attention(dt_device qdev, dt_device kdev, int64_t dim)
      : wq_(ops::randn(qdev, 1, dim, dim)), wk_(ops::randn(kdev, 2, dim, dim)), wv_(ops::randn(qdev, 3, dim, dim)) {}

  ops::T scores(const ops::T &xq, const ops::T &xk) const {
    ops::T q = xq * wq_;
    ops::T k = xk * wk_;
    ops::T kt = k.transposed();
    return q * kt;
  }
  ops::T values(const ops::T &x) const { return x * wv_; }

 private:
  ops::T wq_, wk_, wv_;
};

int main() {
  const int64_t dim = 4;
  Attention attn(dt_sim(0), dt_sim(1), dim);
  ops::T x0 = ops::randn(dt_sim(0), 10, 3, dim);
  ops::T x1 = ops::randn(dt_sim(1), 11, 3, dim);
  ops::T v = attn.values(x0);
  ops::T s = attn.scores(x0, x1);
  ops::T both = v + v;
  std::printf("values %s scores %s sum %s\n", v ? "ok" : "-", s ? "ok" : "failed", both ? "ok" : "-");
  return 0;
}
