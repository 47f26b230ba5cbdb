// provenance: blind round cxx2
// run-env: LABEL_FORMAT=ids
// env_quant_warn.cpp — a multi-label scorer whose label reader can emit either float targets
// (default) or compact integer ids (LABEL_FORMAT=ids, added for a new dataset). The loss and
// the hit-rate still expect float targets. A template Batch<Label> carries either.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

constexpr int kRows = 6;
constexpr int kIn = 3;
constexpr int kLabels = 2;

enum class LabelFormat { Floats, Ids };

LabelFormat label_format() {
  const char* s = std::getenv("LABEL_FORMAT");
  return (s && std::strcmp(s, "ids") == 0) ? LabelFormat::Ids : LabelFormat::Floats;
}

struct Batch {
  Tensor x;
  Tensor labels;
};

class LabelReader {
 public:
  LabelReader(dt_device d, LabelFormat f) : dev_(d), fmt_(f) {}
  Tensor read(int salt) const {
    std::array<int64_t, 2> s{kRows, kLabels};
    if (fmt_ == LabelFormat::Ids) {
      std::vector<int64_t> ids(kRows * kLabels);
      for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>((i + static_cast<size_t>(salt)) % 2);
      return Tensor(dt_from_ints(dev_, ids.data(), 2, s.data()));
    }
    std::vector<float> v(kRows * kLabels);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i + static_cast<size_t>(salt)) % 2);
    return Tensor(dt_from_floats(dev_, v.data(), 2, s.data()));
  }

 private:
  dt_device dev_;
  LabelFormat fmt_;
};

template <typename Reader>
Batch load(dt_device d, const Reader& r, int salt) {
  std::vector<float> xs(kRows * kIn);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>((i * 3 + static_cast<size_t>(salt)) % 5) / 5.0f;
  std::array<int64_t, 2> s{kRows, kIn};
  return Batch{Tensor(dt_from_floats(d, xs.data(), 2, s.data())), r.read(salt)};
}

class Scorer {
 public:
  explicit Scorer(dt_device d) {
    std::array<int64_t, 2> s{kIn, kLabels};
    Tensor r(dt_randn(d, 4u, 2, s.data()));
    w_.reset(dt_mul_scalar(r.get(), 0.5f));
  }
  Tensor probs(const dt_tensor* x) const {
    Tensor z(dt_matmul(x, w_.get()));
    return Tensor(dt_sigmoid(z.get()));
  }
  std::optional<float> loss(const Batch& b) const {
    Tensor p = probs(b.x.get());
    Tensor l(dt_mse_loss(p.get(), b.labels.get())); // expect-warning: kind-mismatch
    if (!l) return std::nullopt;
    float v = 0.0f;
    dt_read_floats(l.get(), &v, 1);
    return v;
  }
  std::optional<float> hit_rate(const Batch& b) const {
    Tensor p = probs(b.x.get());
    Tensor agree(dt_mul(p.get(), b.labels.get())); // expect-warning: kind-mismatch
    if (!agree) return std::nullopt;
    Tensor m(dt_mean(agree.get()));
    float v = 0.0f;
    dt_read_floats(m.get(), &v, 1);
    return v;
  }

 private:
  Tensor w_;
};

// training of the scorer uses its own float targets, independent of the label format
class Trainer {
 public:
  Trainer(dt_device d, float lr) : dev_(d), lr_(lr) {}
  float fit(const dt_tensor* x, const dt_tensor* target, Tensor& w, int steps) const {
    float last = 0.0f;
    for (int s = 0; s < steps; ++s) {
      Tensor p(dt_matmul(x, w.get()));
      Tensor e(dt_sub(p.get(), target));
      Tensor xt(dt_transpose(x));
      Tensor g(dt_matmul(xt.get(), e.get()));
      Tensor gs(dt_mul_scalar(g.get(), -lr_));
      w.reset(dt_add(w.get(), gs.get()));
      Tensor l(dt_mse_loss(p.get(), target));
      dt_read_floats(l.get(), &last, 1);
    }
    return last;
  }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  float lr_;
};

float warmup_linear(dt_device d) {
  std::array<int64_t, 2> sx{kRows, kIn}, sw{kIn, kLabels}, sy{kRows, kLabels};
  Tensor x(dt_randn(d, 12u, 2, sx.data()));
  Tensor w(dt_zeros(d, DT_FLOAT, 2, sw.data()));
  Tensor y(dt_full(d, 0.5f, 2, sy.data()));
  Trainer t(d, 0.05f);
  return t.fit(x.get(), y.get(), w, 5);
}

}  // namespace

int main() {
  const dt_device dev = dt_sim(0);
  LabelReader reader(dev, label_format());
  Scorer scorer(dev);
  std::printf("label format: %s\n", label_format() == LabelFormat::Ids ? "ids" : "floats");
  std::printf("warm-up loss %.5f\n", warmup_linear(dev));
  for (int k = 0; k < 3; ++k) {
    Batch b = load(dev, reader, k);
    auto l = scorer.loss(b);
    auto h = scorer.hit_rate(b);
    std::printf("batch %d: loss %s hit-rate %s\n", k, l ? std::to_string(*l).c_str() : "n/a",
                h ? std::to_string(*h).c_str() : "n/a");
  }
  return 0;
}
