// corpus/cxx/virtual_new_clean.cpp — layers made with `new` and kept behind base-class
// pointers, each virtual call running the override of the class the object was made of: the
// Dense weight is where the input is, and the Cast layer moves its input to the host before
// its own host weight. A helper taking any Layer (a root, the dynamic type unknown) stays
// silent. Clean.
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
  dt_tensor *forward(const dt_tensor *x) const override { return dt_matmul(x, w_); }

 protected:
  dt_tensor *w_;
};

class HostDense : public Dense {
 public:
  HostDense() : Dense(dt_cpu()) {}
  dt_tensor *forward(const dt_tensor *x) const override {
    dt_tensor *h = dt_to_device(x, dt_cpu());
    dt_tensor *y = dt_matmul(h, w_);
    dt_free(h);
    return y;
  }
};

dt_tensor *apply_any(const Layer *layer, const dt_tensor *x) { return layer->forward(x); }

int main() {
  Layer *first = new Dense(dt_sim(0));
  Layer *second = new HostDense();
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *h = first->forward(x);
  dt_tensor *y = second->forward(h);
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(h);
  dt_free(x);
  delete second;
  delete first;
  return 0;
}
