// corpus/cxx/virtual_two_types_bug.cpp — a pipeline of stages held as
// std::vector<std::unique_ptr<Stage>> with two dynamic types: a Scale stage whose factor tensor
// is made on the default device (the host) and a Relu stage. Running the pipeline on sim:1 calls
// each overrider through the base pointer; the Scale one multiplies a sim:1 input by a cpu
// factor. Bug: backend-mismatch.
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
  dt_tensor *run(const dt_tensor *x) const override {
    return dt_mul(x, factor); // expect-error: backend-mismatch
  }
};

struct Relu : Stage {
  dt_tensor *run(const dt_tensor *x) const override { return dt_relu(x); }
};

int main() {
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::make_unique<Relu>());
  stages.push_back(std::make_unique<Scale>());
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 1, kShape);
  for (const auto &s : stages) {
    dt_tensor *y = s->run(x);
    dt_free(x);
    x = y;
  }
  std::printf("%lld\n", (long long)dt_numel(x));
  dt_free(x);
  return 0;
}
