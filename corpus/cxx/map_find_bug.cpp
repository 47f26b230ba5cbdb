// corpus/cxx/map_find_bug.cpp — map_find_clean.cpp's layer, but the input is made on the host:
// the weight find("weight") gives is on sim:0, so the matmul where it was found fails (the
// EMA under another key, on the host, is not what find returns). Bug: backend-mismatch.
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
    dt_tensor *h = dt_matmul(x, it->second); // expect-error: backend-mismatch
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
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
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
