// The classification head: x * W + b, then sigmoid; weight and bias on the stage's device.
#include "stages.hpp"

namespace ps {
namespace {

class Head : public Stage {
 public:
  Head(dt_device dev, int64_t width, int64_t classes) : Stage(dev) {
    const int64_t wshape[] = {width, classes};
    const int64_t bshape[] = {1, classes};
    w_ = dt_randn(dev_, 10, 2, wshape);
    b_ = dt_full(dev_, 0.1f, 2, bshape);
  }
  ~Head() override {
    dt_free(w_);
    dt_free(b_);
  }
  dt_tensor *run(const dt_tensor *x) const override {
    dt_tensor *h = dt_matmul(x, w_);
    dt_tensor *z = dt_add(h, b_);
    dt_tensor *p = dt_sigmoid(z);
    dt_free(z);
    dt_free(h);
    return p;
  }
  std::string label() const override { return "head"; }

 private:
  dt_tensor *w_ = nullptr;
  dt_tensor *b_ = nullptr;
};

}  // namespace

std::unique_ptr<Stage> make_head(dt_device dev, int64_t width, int64_t classes) {
  return std::make_unique<Head>(dev, width, classes);
}

}  // namespace ps
