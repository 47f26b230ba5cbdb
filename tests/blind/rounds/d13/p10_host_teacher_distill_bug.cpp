// Knowledge distillation with the teacher kept on the host.  A wide teacher is first trained
// on autodiff<cpu>; a narrow student is then trained on autodiff<sim:N> against a blend of the
// ground truth and the teacher's (detached) predictions, which are cached per batch index in
// an unordered_map so the teacher runs once per batch.
//
//   usage: p10 [--accel N] [--teacher-epochs E] [--student-epochs S] [--alpha A]
// run-args: --accel 0 --teacher-epochs 3 --student-epochs 3 --alpha 0.5
#include <dt/dt.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

namespace kd {

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using T = std::unique_ptr<dt_tensor, Free>;

struct Relu {
  static T apply(const dt_tensor *x) { return T(dt_relu(x)); }
};
struct Tanh {
  static T apply(const dt_tensor *x) { return T(dt_tanh(x)); }
};

template <typename Act>
class Mlp {
 public:
  Mlp(dt_device plain, std::vector<int64_t> widths, uint64_t seed) : ad_(dt_autodiff(plain)) {
    for (size_t i = 0; i + 1 < widths.size(); ++i) {
      const int64_t ws[2] = {widths[i], widths[i + 1]}, bs[1] = {widths[i + 1]};
      T r(dt_randn(plain, seed + i, 2, ws));
      T s(dt_mul_scalar(r.get(), 1.0f / std::sqrt(float(widths[i]))));
      T z(dt_zeros(plain, DT_FLOAT, 1, bs));
      layers_.push_back({T(dt_require_grad(dt_from_inner(ad_, s.get()))),
                         T(dt_require_grad(dt_from_inner(ad_, z.get())))});
    }
  }

  T forward(const dt_tensor *x) const {
    T h(dt_detach(x));
    for (size_t i = 0; i < layers_.size(); ++i) {
      T z(dt_matmul(h.get(), layers_[i][0].get()));
      T a(dt_add(z.get(), layers_[i][1].get()));
      h = (i + 1 < layers_.size()) ? Act::apply(a.get()) : std::move(a);
    }
    return h;
  }

  void sgd(float lr) {
    for (auto &layer : layers_)
      for (T &p : layer) {
        T g(dt_grad(p.get()));
        if (!g) continue;
        T in(dt_inner(p.get()));
        T st(dt_mul_scalar(g.get(), lr));
        T nw(dt_sub(in.get(), st.get()));
        p = T(dt_require_grad(dt_from_inner(ad_, nw.get())));
      }
  }

  dt_device device() const { return ad_; }
  size_t depth() const { return layers_.size(); }

 private:
  dt_device ad_;
  std::vector<std::array<T, 2>> layers_;
};

constexpr int64_t kIn = 6, kOut = 3, kRows = 8;

struct Sample {
  std::vector<float> x, y;
};

Sample make(int idx) {
  Sample s{std::vector<float>(size_t(kRows * kIn)), std::vector<float>(size_t(kRows * kOut))};
  for (int64_t r = 0; r < kRows; ++r) {
    float acc = 0.0f;
    for (int64_t c = 0; c < kIn; ++c) {
      float v = std::sin(0.23f * float(idx * kRows + r) + 0.9f * float(c));
      s.x[size_t(r * kIn + c)] = v;
      acc += v * v;
    }
    for (int64_t c = 0; c < kOut; ++c)
      s.y[size_t(r * kOut + c)] = std::tanh(acc - 1.5f) * float(c + 1) * 0.3f;
  }
  return s;
}

template <typename M>
float supervised_step(M &model, const Sample &s, float lr) {
  const int64_t xs[2] = {kRows, kIn}, ys[2] = {kRows, kOut};
  T x(dt_from_floats(model.device(), s.x.data(), 2, xs));
  T y(dt_from_floats(model.device(), s.y.data(), 2, ys));
  T out = model.forward(x.get());
  T loss(dt_mse_loss(out.get(), y.get()));
  T li(dt_inner(loss.get()));
  float lv = 0.0f;
  dt_read_floats(li.get(), &lv, 1);
  dt_backward(loss.get());
  model.sgd(lr);
  return lv;
}

}  // namespace kd

int main(int argc, char **argv) {
  using namespace kd;
  int accel = 0, teacher_epochs = 2, student_epochs = 3;
  float alpha = 0.5f;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--accel")) accel = std::atoi(argv[i + 1]) ? 1 : 0;
    else if (!std::strcmp(argv[i], "--teacher-epochs")) teacher_epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--student-epochs")) student_epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--alpha")) alpha = float(std::atof(argv[i + 1]));
  }
  const int batches = 6;

  Mlp<Relu> teacher(dt_cpu(), {kIn, 32, 32, kOut}, 100);
  for (int e = 0; e < teacher_epochs; ++e) {
    float tot = 0.0f;
    for (int b = 0; b < batches; ++b) tot += supervised_step(teacher, make(b), 0.05f);
    std::printf("teacher epoch %d loss %.5f\n", e, tot / float(batches));
  }

  Mlp<Tanh> student(dt_sim(accel), {kIn, 8, kOut}, 200);
  std::unordered_map<int, T> soft_targets;  // batch index -> detached teacher prediction
  auto teacher_targets = [&](int b, const Sample &s) -> const dt_tensor * {
    auto it = soft_targets.find(b);
    if (it != soft_targets.end()) return it->second.get();
    const int64_t xs[2] = {kRows, kIn};
    T x(dt_from_floats(teacher.device(), s.x.data(), 2, xs));
    T out = teacher.forward(x.get());
    T det(dt_detach(out.get()));
    const dt_tensor *raw = det.get();
    soft_targets.emplace(b, std::move(det));
    return raw;
  };

  for (int e = 0; e < student_epochs; ++e) {
    float tot = 0.0f;
    for (int b = 0; b < batches; ++b) {
      Sample s = make(b);
      const int64_t xs[2] = {kRows, kIn}, ys[2] = {kRows, kOut};
      T x(dt_from_floats(student.device(), s.x.data(), 2, xs));
      T y(dt_from_floats(student.device(), s.y.data(), 2, ys));
      T out = student.forward(x.get());
      const dt_tensor *soft = teacher_targets(b, s);
      T hard_loss(dt_mse_loss(out.get(), y.get()));
      T soft_loss(dt_mse_loss(out.get(), soft)); // expect-error: autodiff-inner-backend
      T a(dt_mul_scalar(hard_loss.get(), alpha));
      T c(dt_mul_scalar(soft_loss.get(), 1.0f - alpha));
      T loss(dt_add(a.get(), c.get()));
      T li(dt_inner(loss.get()));
      float lv = 0.0f;
      if (li) dt_read_floats(li.get(), &lv, 1);
      tot += lv;
      if (loss && dt_backward(loss.get()) == 0) student.sgd(0.05f);
    }
    std::printf("student epoch %d loss %.5f (%zu cached targets)\n", e, tot / float(batches),
                soft_targets.size());
  }
  return 0;
}
