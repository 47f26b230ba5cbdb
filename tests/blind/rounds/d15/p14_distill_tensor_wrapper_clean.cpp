// blind round d15 — knowledge distillation through a small RAII Tensor class with operators.
// The accelerator is cuda:0 when dt_backend_available says so, else sim:0 (DISTILL_DEVICE=cpu
// forces the host). The teacher is frozen and plain on the host; the student trains on
// autodiff<accelerator>. Teacher logits are moved to the accelerator and wrapped as untracked
// autodiff tensors; constants are made "like" an existing tensor (same device, so tracked
// when it is); gradients come back plain on the inner device and the update goes through
// Tensor::inner(). Operators hide every dt call, so the tags travel through copies, moves and
// overloads.
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *t) : t_(t) {}
  Tensor(const Tensor &o) : t_(o.t_ ? dt_add_scalar(o.t_, 0.0f) : nullptr) {}
  Tensor(Tensor &&o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  Tensor &operator=(Tensor o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  ~Tensor() { dt_free(t_); }

  static Tensor randn(dt_device d, uint64_t seed, const Shape &s) {
    return Tensor(dt_randn(d, seed, static_cast<int>(s.size()), s.data()));
  }
  static Tensor from(dt_device d, const std::vector<float> &v, const Shape &s) {
    return Tensor(dt_from_floats(d, v.data(), static_cast<int>(s.size()), s.data()));
  }
  // A constant on the same device as `ref` (tracked if ref is).
  static Tensor like(const Tensor &ref, float value, const Shape &s) {
    return Tensor(dt_full(dt_device_of(ref.t_), value, static_cast<int>(s.size()), s.data()));
  }

  dt_tensor *get() const { return t_; }
  dt_device device() const { return dt_device_of(t_); }
  Tensor to(dt_device d) const { return Tensor(dt_to_device(t_, d)); }
  Tensor inner() const { return Tensor(dt_inner(t_)); }
  Tensor grad() const { return Tensor(dt_grad(t_)); }
  Tensor detach() const { return Tensor(dt_detach(t_)); }
  Tensor &requires_grad() {
    dt_require_grad(t_);
    return *this;
  }
  Tensor matmul(const Tensor &o) const { return Tensor(dt_matmul(t_, o.t_)); }
  Tensor relu() const { return Tensor(dt_relu(t_)); }
  Tensor exp() const { return Tensor(dt_exp(t_)); }
  Tensor log() const { return Tensor(dt_log(t_)); }
  Tensor sum_dim(int axis) const { return Tensor(dt_sum_dim(t_, axis)); }
  Tensor mean() const { return Tensor(dt_mean(t_)); }
  Tensor reshape(const Shape &s) const { return Tensor(dt_reshape(t_, static_cast<int>(s.size()), s.data())); }
  float item() const {
    float v = 0.0f;
    dt_read_floats(t_, &v, 1);
    return v;
  }
  explicit operator bool() const { return t_ != nullptr; }

 private:
  dt_tensor *t_ = nullptr;
};

Tensor operator+(const Tensor &a, const Tensor &b) { return Tensor(dt_add(a.get(), b.get())); }
Tensor operator-(const Tensor &a, const Tensor &b) { return Tensor(dt_sub(a.get(), b.get())); }
Tensor operator*(const Tensor &a, const Tensor &b) { return Tensor(dt_mul(a.get(), b.get())); }
Tensor operator*(const Tensor &a, float s) { return Tensor(dt_mul_scalar(a.get(), s)); }

Tensor wrap(dt_device ad, const Tensor &plain) { return Tensor(dt_from_inner(ad, plain.get())); }

constexpr int kBatch = 4, kIn = 5, kHid = 7, kClasses = 3;

Tensor log_softmax(const Tensor &logits, float temperature) {
  Tensor scaled = logits * (1.0f / temperature);
  Tensor z = scaled.exp().sum_dim(1).reshape({kBatch, 1});
  return scaled - z.log();
}

dt_device pick_accelerator() {
  const char *forced = std::getenv("DISTILL_DEVICE");
  if (forced && std::strcmp(forced, "cpu") == 0) return dt_cpu();
  if (dt_backend_available(DT_BACKEND_CUDA)) {
    dt_set_matmul_precision(DT_MATMUL_FAST);
    return dt_cuda(0);
  }
  return dt_sim(0);
}

struct Teacher {
  Tensor w1, w2;  // plain, host
  explicit Teacher(dt_device host)
      : w1(Tensor::randn(host, 61, {kIn, kHid})), w2(Tensor::randn(host, 62, {kHid, kClasses})) {}
  Tensor logits(const Tensor &x) const { return x.matmul(w1).relu().matmul(w2); }
};

class Student {
 public:
  explicit Student(dt_device ad) : dev_(ad) {
    dt_device inner = dt_inner_device(ad);
    w1_ = wrap(ad, Tensor::randn(inner, 71, {kIn, kHid}) * 0.3f);
    w2_ = wrap(ad, Tensor::randn(inner, 72, {kHid, kClasses}) * 0.3f);
    w1_.requires_grad();
    w2_.requires_grad();
  }
  Tensor logits(const Tensor &x) const { return x.matmul(w1_).relu().matmul(w2_); }
  void sgd(float lr) {
    for (Tensor *w : {&w1_, &w2_}) {
      Tensor g = w->grad();
      if (!g) continue;
      Tensor next = w->inner() - g * lr;
      *w = wrap(dev_, next);
      w->requires_grad();
    }
  }
  dt_device device() const { return dev_; }
  std::pair<Tensor, Tensor> host_copy() const {
    return {w1_.inner().to(dt_cpu()), w2_.inner().to(dt_cpu())};
  }

 private:
  dt_device dev_;
  Tensor w1_, w2_;
};

Tensor host_batch(int step) {
  std::vector<float> v(kBatch * kIn);
  for (size_t i = 0; i < v.size(); i++) v[i] = static_cast<float>((i * 7 + static_cast<size_t>(step)) % 8) / 8.0f;
  return Tensor::from(dt_cpu(), v, {kBatch, kIn});
}

float distill_step(const Teacher &teacher, Student &student, int step, float temperature) {
  dt_device ad = student.device();
  dt_device accel = dt_inner_device(ad);
  Tensor xh = host_batch(step);
  Tensor t_logits = teacher.logits(xh);
  Tensor t_logp = log_softmax(t_logits, temperature);
  Tensor t_prob_raw = wrap(ad, t_logp.exp().to(accel));  // untracked constant on the student side
  Tensor t_prob = t_prob_raw * 0.9f + Tensor::like(t_prob_raw, 0.1f / kClasses, {kBatch, kClasses});
  Tensor x = wrap(ad, xh.to(accel));
  Tensor s_logp = log_softmax(student.logits(x), temperature);
  Tensor t_logp_ad = wrap(ad, t_logp.to(accel));
  Tensor kl_terms = t_prob * (t_logp_ad - s_logp);
  Tensor t2 = Tensor::like(kl_terms, temperature * temperature, {1});
  Tensor loss = (kl_terms.sum_dim(1) * t2).mean();
  float lv = loss.item();
  dt_backward(loss.get());
  student.sgd(0.5f);
  return lv;
}

int agreement_on_host(const Teacher &teacher, const Student &student) {
  auto [w1, w2] = student.host_copy();
  Tensor x = host_batch(42);
  Tensor s = x.matmul(w1).relu().matmul(w2);
  Tensor t = teacher.logits(x);
  std::vector<float> sv(kBatch * kClasses), tv(kBatch * kClasses);
  dt_read_floats(s.get(), sv.data(), static_cast<int64_t>(sv.size()));
  dt_read_floats(t.get(), tv.data(), static_cast<int64_t>(tv.size()));
  int agree = 0;
  for (int i = 0; i < kBatch; i++) {
    int bs = 0, bt = 0;
    for (int c = 1; c < kClasses; c++) {
      if (sv[static_cast<size_t>(i * kClasses + c)] > sv[static_cast<size_t>(i * kClasses + bs)]) bs = c;
      if (tv[static_cast<size_t>(i * kClasses + c)] > tv[static_cast<size_t>(i * kClasses + bt)]) bt = c;
    }
    agree += bs == bt;
  }
  return agree;
}

}  // namespace

int main() {
  dt_device accel = pick_accelerator();
  Teacher teacher(dt_cpu());
  Student student(dt_autodiff(accel));
  char name[32];
  dt_device_name(student.device(), name, sizeof name);
  for (int step = 0; step < 4; step++) std::printf("%s step %d: kd loss %.4f\n", name, step, distill_step(teacher, student, step, 2.0f));
  std::printf("host agreement: %d/%d\n", agreement_on_host(teacher, student), kBatch);
  return 0;
}
