// provenance: blind round cxx2
// stage_pipeline_clean.cpp — a pipeline of heterogeneous stages held as
// std::vector<std::unique_ptr<Stage>>, alternating sim:0 and sim:1 (and a host post-processor).
// Each stage declares its device and the runner moves activations at every boundary; a
// std::map of per-device scratch buffers is looked up by the stage's own device. Correct on
// every input.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

constexpr int kW = 4;
constexpr int kRows = 2;

std::string key_of(dt_device d) {
  char b[32];
  dt_device_name(d, b, sizeof b);
  return b;
}

class Stage {
 public:
  explicit Stage(dt_device d) : dev_(d) {}
  virtual ~Stage() = default;
  dt_device device() const { return dev_; }
  virtual Tensor run(const dt_tensor* x, const dt_tensor* scratch) const = 0;
  virtual const char* kind() const = 0;

 protected:
  dt_device dev_;
};

class Affine final : public Stage {
 public:
  Affine(dt_device d, uint64_t seed) : Stage(d) {
    std::array<int64_t, 2> s{kW, kW};
    Tensor r(dt_randn(d, seed, 2, s.data()));
    w_.reset(dt_mul_scalar(r.get(), 0.4f));
  }
  Tensor run(const dt_tensor* x, const dt_tensor* scratch) const override {
    Tensor h(dt_matmul(x, w_.get()));
    return Tensor(dt_add(h.get(), scratch));
  }
  const char* kind() const override { return "affine"; }

 private:
  Tensor w_;
};

class Squash final : public Stage {
 public:
  using Stage::Stage;
  Tensor run(const dt_tensor* x, const dt_tensor* scratch) const override {
    Tensor s(dt_sigmoid(x));
    return Tensor(dt_mul(s.get(), scratch));
  }
  const char* kind() const override { return "squash"; }
};

class Runner {
 public:
  void add(std::unique_ptr<Stage> s) {
    const std::string k = key_of(s->device());
    if (!scratch_.count(k)) {
      std::array<int64_t, 1> sh{kW};
      scratch_.emplace(k, Tensor(dt_full(s->device(), 0.5f, 1, sh.data())));
    }
    stages_.push_back(std::move(s));
  }
  Tensor run(Tensor x) const {
    for (const auto& st : stages_) {
      if (!dt_device_equal(dt_device_of(x.get()), st->device())) x.reset(dt_to_device(x.get(), st->device()));
      const dt_tensor* scratch = scratch_.at(key_of(st->device())).get();
      x = st->run(x.get(), scratch);
    }
    return x;
  }
  size_t size() const { return stages_.size(); }

 private:
  std::vector<std::unique_ptr<Stage>> stages_;
  std::map<std::string, Tensor> scratch_;
};

Tensor host_input(int k) {
  std::vector<float> v(kRows * kW);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((static_cast<int>(i) + k) % 5) * 0.25f;
  std::array<int64_t, 2> s{kRows, kW};
  return Tensor(dt_from_floats(dt_cpu(), v.data(), 2, s.data()));
}

// a drop-in stage that keeps a running mean of what passes through, on its own device
class Monitor final : public Stage {
 public:
  explicit Monitor(dt_device d) : Stage(d) {
    std::array<int64_t, 1> s{kW};
    mean_ = std::make_shared<Tensor>(dt_zeros(d, DT_FLOAT, 1, s.data()));
  }
  Tensor run(const dt_tensor* x, const dt_tensor* scratch) const override {
    Tensor col(dt_sum_dim(x, 0));
    Tensor upd(dt_add(mean_->get(), col.get()));
    mean_->reset(upd.release());
    return Tensor(dt_mul(x, scratch));
  }
  const char* kind() const override { return "monitor"; }
  float total() const {
    Tensor s(dt_sum(mean_->get()));
    float v = 0.0f;
    dt_read_floats(s.get(), &v, 1);
    return v;
  }

 private:
  std::shared_ptr<Tensor> mean_;
};

}  // namespace

int main(int argc, char** argv) {
  const int depth = argc > 1 ? std::atoi(argv[1]) : 5;
  Runner r;
  for (int i = 0; i < depth && i < 12; ++i) {
    const dt_device d = dt_sim(i % 2);
    if (i % 3 == 2) r.add(std::make_unique<Squash>(d));
    else r.add(std::make_unique<Affine>(d, 60u + static_cast<uint64_t>(i)));
  }
  auto mon = std::make_unique<Monitor>(dt_sim(1));
  const Monitor* mon_view = mon.get();
  r.add(std::move(mon));
  r.add(std::make_unique<Squash>(dt_cpu()));
  for (int k = 0; k < 3; ++k) {
    Tensor y = r.run(host_input(k));
    std::array<float, kRows * kW> out{};
    dt_read_floats(y.get(), out.data(), static_cast<int64_t>(out.size()));
    std::printf("input %d through %zu stages: %.4f %.4f\n", k, r.size(), out[0], out[1]);
  }
  std::printf("monitor saw %.4f\n", mon_view->total());
  return 0;
}
