// corpus/cxx/virtual_two_types_clean.cpp — the same pipeline of two dynamic types held as
// std::vector<std::unique_ptr<Stage>>, but the Scale stage is built on the device the pipeline
// runs on, and a third class (a stage that moves its input to the host and back) is declared
// and never put in the vector. Each overrider reached through the base pointer gets operands on
// one device. Clean.
#include <cstdio>
#include <memory>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[1] = {4};

struct Stage {
  virtual ~Stage() = default;
  virtual dt_tensor *run(const dt_tensor *x) const = 0;
};

struct Scale : Stage {
  dt_tensor *factor;
  explicit Scale(dt_device dev = dt_cpu()) : factor(dt_ones(dev, DT_FLOAT, 1, kShape)) {}
  ~Scale() override { dt_free(factor); }
  dt_tensor *run(const dt_tensor *x) const override { return dt_mul(x, factor); }
};

struct Relu : Stage {
  dt_tensor *run(const dt_tensor *x) const override { return dt_relu(x); }
};

struct HostRoundTrip : Stage {
  dt_tensor *host_bias = dt_ones(dt_cpu(), DT_FLOAT, 1, kShape);
  ~HostRoundTrip() override { dt_free(host_bias); }
  dt_tensor *run(const dt_tensor *x) const override { return dt_add(x, host_bias); }
};

int main() {
  const dt_device dev = dt_sim(1);
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::make_unique<Relu>());
  stages.push_back(std::make_unique<Scale>(dev));
  stages.push_back(std::make_unique<Relu>());
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 1, kShape);
  for (const auto &s : stages) {
    dt_tensor *y = s->run(x);
    dt_free(x);
    x = y;
  }
  std::printf("%lld\n", (long long)dt_numel(x));
  dt_free(x);
  return 0;
}
