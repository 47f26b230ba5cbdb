// Momentum buffers kept in a std::unordered_map keyed by parameter name: try_emplace(name,
// nullptr) returns the pair whose .first is the buffer's iterator, and the buffer is made on
// first use. The buffers are made on the optimizer's
// "state device" (sim:1) while the gradients live with the parameters on sim:0: adding a
// gradient to its buffer fails on the first step already, on the path that creates the buffer
// as on the one that finds it again.
#include <dt/dt.h>

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kWidth = 4;

struct Param {
  std::string name;
  dt_tensor *value;
};

class Momentum {
 public:
  Momentum(dt_device state_dev, float beta) : state_dev_(state_dev), beta_(beta) {}
  ~Momentum() {
    for (auto &kv : velocity_) dt_free(kv.second);
  }

  // v = beta * v + g, returned for the caller to apply
  const dt_tensor *update(const std::string &name, const dt_tensor *grad) {
    const int64_t shape[1] = {kWidth};
    auto slot = velocity_.try_emplace(name, nullptr);
    auto it = slot.first;
    if (slot.second) it->second = dt_zeros(state_dev_, DT_FLOAT, 1, shape);
    dt_tensor *decayed = dt_mul_scalar(it->second, beta_);
    dt_tensor *next = dt_add(decayed, grad); // expect-error: device-mismatch
    dt_free(decayed);
    dt_free(it->second);
    it->second = next;
    return next;
  }

 private:
  dt_device state_dev_;
  float beta_;
  std::unordered_map<std::string, dt_tensor *> velocity_;
};

}  // namespace

int main() {
  const dt_device dev = dt_sim(0);
  const int64_t shape[1] = {kWidth};
  std::vector<Param> params;
  params.push_back({"w", dt_randn(dev, 1, 1, shape)});
  params.push_back({"b", dt_zeros(dev, DT_FLOAT, 1, shape)});
  Momentum opt(dt_sim(1), 0.9f);
  for (int step = 0; step < 2; ++step) {
    for (Param &p : params) {
      dt_tensor *g = dt_mul_scalar(p.value, 0.1f);
      const dt_tensor *v = opt.update(p.name, g);
      if (v == nullptr) {
        std::printf("update failed: %s\n", dt_last_error());
        dt_free(g);
        return 1;
      }
      dt_free(g);
    }
  }
  for (Param &p : params) dt_free(p.value);
  return 0;
}
