// corpus/cxx/nonempty_loop_device_clean.cpp — a trainer picks the device of its batches from the
// batches themselves: `dev` starts as the CPU and each batch loaded into the std::vector
// (push_back) sets it to the batch's device, in a range-for; the model is then made on `dev`.
// The vector is not empty when the loop runs, so the loop runs and `dev` is sim:0, the device
// of every batch: nothing may be reported (taking the loop zero times would keep the CPU).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <dt/dt.h>

namespace {

constexpr int64_t kShape[2] = {2, 2};

struct Batch {
  dt_tensor *x;
};

dt_device device_of_batches(const std::vector<Batch> &batches) {
  dt_device dev = dt_cpu();
  for (const Batch &b : batches) dev = dt_device_of(b.x);
  return dev;
}

}  // namespace

int main() {
  std::vector<Batch> batches;
  batches.push_back({dt_randn(dt_sim(0), 1, 2, kShape)});
  batches.push_back({dt_randn(dt_sim(0), 2, 2, kShape)});
  dt_device dev = device_of_batches(batches);
  std::map<std::string, dt_tensor *> params;
  params["w"] = dt_randn(dev, 3, 2, kShape);
  dt_tensor *w = nullptr;
  for (auto it = params.begin(); it != params.end(); ++it) w = it->second;
  for (size_t i = 0; i < batches.size(); ++i) {
    dt_tensor *y = dt_matmul(batches[i].x, w);
    if (y == nullptr) {
      std::printf("step failed: %s\n", dt_last_error());
      return 1;
    }
    std::printf("%lld\n", (long long)dt_numel(y));
    dt_free(y);
  }
  for (auto &kv : params) dt_free(kv.second);
  for (Batch &b : batches) dt_free(b.x);
  return 0;
}
