// corpus/cxx/layer_stack_moves_clean.cpp — a model split over three devices, its layers held
// as std::vector<std::unique_ptr<Layer>>: a Linear layer on sim:0, a Norm layer on sim:1 and
// a host Head. Each override first brings its input to its own layer's device (when it is not
// there already) and only then combines it with its parameters; the runner also reads each
// layer's device to count the transfers. Whichever layer the pointer reaches, the operands
// meet on one device. Clean.
#include <array>
#include <cstdio>
#include <memory>
#include <vector>

#include <dt/dt.h>

namespace {

constexpr int kW = 4;

class Layer {
 public:
  explicit Layer(dt_device d) : dev_(d) {}
  virtual ~Layer() = default;
  dt_device device() const { return dev_; }
  virtual dt_tensor *forward(dt_tensor *x) const = 0;

 protected:
  // takes x, gives it back on this layer's device
  dt_tensor *to_here(dt_tensor *x) const {
    if (dt_device_equal(dt_device_of(x), dev_)) return x;
    dt_tensor *m = dt_to_device(x, dev_);
    dt_free(x);
    return m;
  }
  dt_device dev_;
};

class Linear final : public Layer {
 public:
  Linear(dt_device d, uint64_t seed) : Layer(d) {
    std::array<int64_t, 2> s{kW, kW};
    w_ = dt_randn(d, seed, 2, s.data());
  }
  ~Linear() override { dt_free(w_); }
  dt_tensor *forward(dt_tensor *x) const override {
    x = to_here(x);
    dt_tensor *y = dt_matmul(x, w_);
    dt_free(x);
    return y;
  }

 private:
  dt_tensor *w_;
};

class Norm final : public Layer {
 public:
  explicit Norm(dt_device d) : Layer(d) {
    std::array<int64_t, 1> s{kW};
    gamma_ = dt_full(d, 0.5f, 1, s.data());
  }
  ~Norm() override { dt_free(gamma_); }
  dt_tensor *forward(dt_tensor *x) const override {
    dt_tensor *h = to_here(x);
    dt_tensor *y = dt_mul(h, gamma_);
    dt_free(h);
    return y;
  }

 private:
  dt_tensor *gamma_;
};

class Head final : public Layer {
 public:
  Head() : Layer(dt_cpu()) {
    std::array<int64_t, 1> s{kW};
    bias_ = dt_ones(dt_cpu(), DT_FLOAT, 1, s.data());
  }
  ~Head() override { dt_free(bias_); }
  dt_tensor *forward(dt_tensor *x) const override {
    dt_tensor *h = to_here(x);
    dt_tensor *y = dt_add(h, bias_);
    dt_free(h);
    return y;
  }

 private:
  dt_tensor *bias_;
};

}  // namespace

int main() {
  std::vector<std::unique_ptr<Layer>> layers;
  layers.push_back(std::make_unique<Linear>(dt_sim(0), 11u));
  layers.push_back(std::make_unique<Norm>(dt_sim(1)));
  layers.push_back(std::make_unique<Linear>(dt_sim(1), 12u));
  layers.push_back(std::make_unique<Head>());
  std::array<int64_t, 2> s{2, kW};
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, s.data());
  int transfers = 0;
  for (auto &l : layers) {
    if (!dt_device_equal(dt_device_of(x), l->device())) transfers++;
    x = l->forward(x);
  }
  std::printf("%d transfers, %lld values\n", transfers, static_cast<long long>(dt_numel(x)));
  dt_free(x);
  return 0;
}
