// Momentum buffers in a std::map keyed by parameter name: found with find() or created with
// try_emplace (the iterator is the pair's .first) on the gradient's own device, and a second
// cache filled with insert(std::make_pair(...)).first. Every buffer
// is on the device of the gradient it meets, so nothing may be reported.
#include <dt/dt.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace {

constexpr int kWidth = 4;

class Momentum {
 public:
  explicit Momentum(float beta) : beta_(beta) {}
  ~Momentum() {
    for (auto &kv : velocity_) dt_free(kv.second);
    for (auto &kv : peak_) dt_free(kv.second);
  }

  dt_tensor *update(const std::string &name, const dt_tensor *grad) {
    const int64_t shape[1] = {kWidth};
    auto found = velocity_.find(name);
    if (found == velocity_.end())
      found = velocity_.try_emplace(name, dt_zeros(dt_device_of(grad), DT_FLOAT, 1, shape)).first;
    dt_tensor *decayed = dt_mul_scalar(found->second, beta_);
    dt_tensor *next = dt_add(decayed, grad);
    dt_free(decayed);
    dt_free(found->second);
    found->second = next;
    auto peak = peak_.find(name);
    if (peak == peak_.end())
      peak = peak_.insert(std::make_pair(name, dt_mul_scalar(grad, 1.0f))).first;
    dt_tensor *sum = dt_add(peak->second, next);
    dt_free(peak->second);
    peak->second = sum;
    return next;
  }

 private:
  float beta_;
  std::map<std::string, dt_tensor *> velocity_;
  std::map<std::string, dt_tensor *> peak_;
};

}  // namespace

int main() {
  const int64_t shape[1] = {kWidth};
  dt_tensor *w = dt_randn(dt_sim(1), 3, 1, shape);
  dt_tensor *b = dt_zeros(dt_sim(1), DT_FLOAT, 1, shape);
  Momentum opt(0.9f);
  for (int step = 0; step < 3; ++step) {
    dt_tensor *gw = dt_mul_scalar(w, 0.1f);
    dt_tensor *gb = dt_mul_scalar(b, 0.1f);
    if (!opt.update("w", gw) || !opt.update("b", gb)) {
      std::printf("update failed: %s\n", dt_last_error());
      return 1;
    }
    dt_free(gw);
    dt_free(gb);
  }
  std::printf("ok\n");
  dt_free(w);
  dt_free(b);
  return 0;
}
