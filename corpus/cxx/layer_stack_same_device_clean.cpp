// corpus/cxx/layer_stack_same_device_clean.cpp — a model of three layer classes held as
// std::vector<std::unique_ptr<Layer>>, every layer built on the one device picked from the
// command line (sim:1, or the host with --cpu), the input made there too. Each virtual forward
// reached through the base pointer combines its input with its own parameters, which are on
// the input's device whichever device was picked. Clean.
#include <array>
#include <cstdio>
#include <cstring>
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
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;

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
  dt_tensor *forward(const dt_tensor *x) const override { return dt_matmul(x, w_); }

 private:
  dt_tensor *w_;
};

class Norm final : public Layer {
 public:
  explicit Norm(dt_device d) : Layer(d) {
    std::array<int64_t, 1> s{kW};
    gamma_ = dt_full(d, 0.5f, 1, s.data());
    beta_ = dt_zeros(d, DT_FLOAT, 1, s.data());
  }
  ~Norm() override {
    dt_free(gamma_);
    dt_free(beta_);
  }
  dt_tensor *forward(const dt_tensor *x) const override {
    dt_tensor *h = dt_mul(x, gamma_);
    dt_tensor *y = dt_add(h, beta_);
    dt_free(h);
    return y;
  }

 private:
  dt_tensor *gamma_;
  dt_tensor *beta_;
};

class Act final : public Layer {
 public:
  using Layer::Layer;
  dt_tensor *forward(const dt_tensor *x) const override { return dt_relu(x); }
};

}  // namespace

int main(int argc, char **argv) {
  const dt_device dev = argc > 1 && std::strcmp(argv[1], "--cpu") == 0 ? dt_cpu() : dt_sim(1);
  std::vector<std::unique_ptr<Layer>> layers;
  layers.push_back(std::make_unique<Linear>(dev, 3u));
  layers.push_back(std::make_unique<Norm>(dev));
  layers.push_back(std::make_unique<Act>(dev));
  layers.push_back(std::make_unique<Linear>(dev, 4u));
  std::array<int64_t, 2> s{2, kW};
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, s.data());
  for (const auto &l : layers) {
    dt_tensor *y = l->forward(x);
    dt_free(x);
    x = y;
  }
  std::printf("%lld\n", static_cast<long long>(dt_numel(x)));
  dt_free(x);
  return 0;
}
