// corpus/cxx/exchange_handle_bug.cpp — an owning tensor handle whose move constructor and move
// assignment are written with std::exchange (the moved-from handle is left empty). The
// activations are built on the CPU and moved into the layer's output, but the weights were made
// on the simulator. Bug: backend-mismatch where the output meets the weights.
#include <cstdio>
#include <utility>

#include <dt/dt.h>

static const int64_t kShape[1] = {4};

class Tensor {
 public:
  explicit Tensor(dt_tensor *t) : t_(t) {}
  Tensor(Tensor &&o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  Tensor &operator=(Tensor &&o) noexcept {
    if (this != &o) {
      dt_free(t_);
      t_ = std::exchange(o.t_, nullptr);
    }
    return *this;
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;
  ~Tensor() { dt_free(t_); }
  dt_tensor *get() const { return t_; }

 private:
  dt_tensor *t_;
};

static Tensor activations(dt_device dev) { return Tensor(dt_ones(dev, DT_FLOAT, 1, kShape)); }

int main() {
  Tensor weights(dt_randn(dt_sim(0), 11, 1, kShape));
  Tensor out(activations(dt_cpu()));
  out = Tensor(dt_relu(out.get()));
  Tensor scaled(dt_mul(out.get(), weights.get())); // expect-error: backend-mismatch
  std::printf("%lld\n", (long long)dt_numel(scaled.get()));
  return 0;
}
