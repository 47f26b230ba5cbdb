// corpus/cxx/virtual_new_bug.cpp — layers made with `new` and kept behind base-class pointers:
// a virtual call runs the override of the class the object was made of (its constructor
// records it), here a Dense whose weight is on sim:1 while the input is on sim:0.
// Bug: device-mismatch in Dense::forward, reached only through virtual dispatch.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Layer {
 public:
  virtual ~Layer() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
};

class Dense : public Layer {
 public:
  explicit Dense(dt_device d) : w_(dt_randn(d, 1, 2, kShape)) {}
  ~Dense() override { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) const override {
    return dt_matmul(x, w_); // expect-error: device-mismatch
  }

 private:
  dt_tensor *w_;
};

class Identity : public Layer {
 public:
  dt_tensor *forward(const dt_tensor *x) const override { return dt_add_scalar(x, 0.0f); }
};

static dt_tensor *run(const Layer &layer, const dt_tensor *x) { return layer.forward(x); }

int main() {
  Layer *first = new Identity();
  Layer *second = new Dense(dt_sim(1));
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *h = first->forward(x);
  dt_tensor *y = run(*second, h);
  std::printf("%lld\n", (long long)dt_numel(y));
  delete second;
  delete first;
  return 0;
}
