// corpus/cxx/layer_stack_override_bug.cpp — a model kept as
// std::vector<std::unique_ptr<Layer>> of three classes, run with a range-for calling the
// virtual forward through the base pointer. Every layer is built for the model's device but
// the Bias layer, whose constructor forgets it and makes its table on the default device (the
// host); the Scale layer before it and the Gelu-like layer after it are fine. Bug:
// backend-mismatch in Bias::forward only.
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include <dt/dt.h>

namespace {

const int64_t kShape[2] = {2, 4};

class Layer {
 public:
  virtual ~Layer() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
  virtual const char *name() const = 0;
};

class Scale : public Layer {
 public:
  Scale(dt_device dev, float s) : w_(dt_full(dev, s, 2, kShape)) {}
  ~Scale() override { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) const override { return dt_mul(x, w_); }
  const char *name() const override { return "scale"; }

 private:
  dt_tensor *w_;
};

class Bias : public Layer {
 public:
  explicit Bias(float b) : b_(dt_full(dt_cpu(), b, 2, kShape)) {}
  ~Bias() override { dt_free(b_); }
  dt_tensor *forward(const dt_tensor *x) const override {
    return dt_add(x, b_); // expect-error: backend-mismatch
  }
  const char *name() const override { return "bias"; }

 private:
  dt_tensor *b_;
};

class Squash : public Layer {
 public:
  dt_tensor *forward(const dt_tensor *x) const override { return dt_sigmoid(x); }
  const char *name() const override { return "squash"; }
};

class Model {
 public:
  explicit Model(dt_device dev) {
    layers_.push_back(std::make_unique<Scale>(dev, 0.5f));
    layers_.push_back(std::make_unique<Bias>(0.1f));
    layers_.push_back(std::make_unique<Squash>());
  }
  dt_tensor *forward(dt_tensor *x) const {
    for (auto &l : layers_) {
      dt_tensor *y = l->forward(x);
      std::printf("  %s\n", l->name());
      dt_free(x);
      x = y;
    }
    return x;
  }

 private:
  std::vector<std::unique_ptr<Layer>> layers_;
};

}  // namespace

int main() {
  const dt_device dev = dt_sim(1);
  Model m(dev);
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, kShape);
  x = m.forward(x);
  std::printf("%lld\n", static_cast<long long>(dt_numel(x)));
  dt_free(x);
  return 0;
}
