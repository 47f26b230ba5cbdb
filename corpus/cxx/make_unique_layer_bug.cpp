// corpus/cxx/make_unique_layer_bug.cpp — a model that owns its layers through
// std::vector<std::unique_ptr<Layer>>, each made by std::make_unique<Derived>() whose constructor
// takes its device from a default argument (the CPU). The input batch is on the simulator.
// Bug: backend-mismatch inside the overriding forward, reached through the base pointer.
#include <cstdio>
#include <memory>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[1] = {4};

struct Layer {
  virtual ~Layer() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
};

struct Scale : Layer {
  explicit Scale(dt_device dev = dt_cpu()) : w_(dt_ones(dev, DT_FLOAT, 1, kShape)) {}
  ~Scale() override { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) const override {
    return dt_mul(x, w_); // expect-error: backend-mismatch
  }
  dt_tensor *w_;
};

int main() {
  std::vector<std::unique_ptr<Layer>> layers;
  layers.push_back(std::make_unique<Scale>());
  std::unique_ptr<Layer> head = std::make_unique<Scale>();
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 1, kShape);
  dt_tensor *y = head->forward(x);
  std::printf("%lld %zu\n", (long long)dt_numel(y), layers.size());
  dt_free(y);
  dt_free(x);
  return 0;
}
