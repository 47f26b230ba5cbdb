// The encoder stage: x * W then ReLU, with its weight on the stage's device.
#include "stages.hpp"

namespace ps {
namespace {

class Encoder : public Stage {
 public:
  Encoder(dt_device dev, int64_t in, int64_t width) : Stage(dev) {
    const int64_t shape[] = {in, width};
    w_ = dt_randn(dev_, 9, 2, shape);
  }
  ~Encoder() override { dt_free(w_); }
  dt_tensor *run(const dt_tensor *x) const override {
    dt_tensor *h = dt_matmul(x, w_);
    dt_tensor *a = dt_relu(h);
    dt_free(h);
    return a;
  }
  std::string label() const override { return "encoder"; }

 private:
  dt_tensor *w_ = nullptr;
};

}  // namespace

std::unique_ptr<Stage> make_encoder(dt_device dev, int64_t in, int64_t width) {
  return std::make_unique<Encoder>(dev, in, width);
}

}  // namespace ps
