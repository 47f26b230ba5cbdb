// corpus/cxx/layer_stack_devices_bug.cpp — a two-stage model split over two simulated
// devices, its layers held as std::vector<std::unique_ptr<Layer>>: a Linear layer on sim:0 and
// a Norm layer on sim:1, each correct for an input on its own device. The runner hands the
// activations from one layer to the next without moving them, so the Norm layer gets the
// sim:0 output of the Linear layer. Bug: device-mismatch in Norm::forward.
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
  virtual dt_tensor *forward(const dt_tensor *x) = 0;

 protected:
  dt_device dev_;
};

class Linear final : public Layer {
 public:
  Linear(dt_device d, uint64_t seed) : Layer(d) {
    std::array<int64_t, 2> s{kW, kW};
    w_ = dt_randn(d, seed, 2, s.data());
  }
  ~Linear() override { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) override { return dt_matmul(x, w_); }

 private:
  dt_tensor *w_;
};

class Norm final : public Layer {
 public:
  explicit Norm(dt_device d) : Layer(d) {
    std::array<int64_t, 1> s{kW};
    gamma_ = dt_full(d, 0.25f, 1, s.data());
  }
  ~Norm() override { dt_free(gamma_); }
  dt_tensor *forward(const dt_tensor *x) override {
    return dt_mul(x, gamma_); // expect-error: device-mismatch
  }

 private:
  dt_tensor *gamma_;
};

}  // namespace

int main() {
  std::vector<std::unique_ptr<Layer>> layers;
  layers.push_back(std::make_unique<Linear>(dt_sim(0), 7u));
  layers.push_back(std::make_unique<Norm>(dt_sim(1)));
  std::array<int64_t, 2> s{2, kW};
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, s.data());
  for (auto &l : layers) {
    dt_tensor *y = l->forward(x);
    dt_free(x);
    x = y;
  }
  std::printf("%lld\n", static_cast<long long>(dt_numel(x)));
  dt_free(x);
  return 0;
}
