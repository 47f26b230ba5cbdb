// corpus/cxx/map_find_clean.cpp — a layer keeps its parameters in a std::map by name: the
// weight on the accelerator (sim:0), an exponential moving average of it on the host (cpu).
// forward() looks the weight up with find() and uses it only where it was found
// (`it != end()`); the optional "scale" is looked up the same way and made on the weight's
// device when it is missing (the `== end()` side reads nothing). find("weight") is the weight
// alone, not the EMA kept under another key: nothing may be reported.
#include <cstdio>
#include <map>
#include <string>

#include <dt/dt.h>

namespace {

constexpr int64_t kShape[2] = {2, 2};

class Linear {
 public:
  explicit Linear(dt_device dev) {
    params_["weight"] = dt_randn(dev, 11, 2, kShape);
    params_["ema"] = dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape);
  }
  ~Linear() {
    for (auto &kv : params_) dt_free(kv.second);
  }

  dt_tensor *forward(const dt_tensor *x) {
    auto it = params_.find("weight");
    if (it == params_.end()) return nullptr;
    dt_tensor *h = dt_matmul(x, it->second);
    auto scale = params_.find("scale");
    if (scale == params_.end()) {
      dt_tensor *y = dt_mul_scalar(h, 0.5f);
      dt_free(h);
      return y;
    }
    dt_tensor *y = dt_mul(h, scale->second);
    dt_free(h);
    return y;
  }

 private:
  std::map<std::string, dt_tensor *> params_;
};

}  // namespace

int main() {
  const dt_device dev = dt_sim(0);
  Linear layer(dev);
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, kShape);
  dt_tensor *y = layer.forward(x);
  if (y == nullptr) {
    std::printf("forward failed: %s\n", dt_last_error());
    return 1;
  }
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  return 0;
}
