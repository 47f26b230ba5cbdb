// corpus/cxx/nonempty_loop_device_bug.cpp — nonempty_loop_device_clean.cpp's trainer, but the
// device is taken from the evaluation batches (on sim:1) while the model trains on the training
// batches (sim:0): the loop over the non-empty vector runs, `dev` is sim:1, and the first
// matmul of a training batch with the weight made on `dev` fails on every path.
// Bug: device-mismatch.
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
  std::vector<Batch> train;
  train.push_back({dt_randn(dt_sim(0), 1, 2, kShape)});
  train.push_back({dt_randn(dt_sim(0), 2, 2, kShape)});
  std::vector<Batch> eval;
  eval.push_back({dt_randn(dt_sim(1), 3, 2, kShape)});
  eval.push_back({dt_randn(dt_sim(1), 4, 2, kShape)});
  dt_device dev = device_of_batches(eval);
  std::map<std::string, dt_tensor *> params;
  params["w"] = dt_randn(dev, 3, 2, kShape);
  dt_tensor *w = nullptr;
  for (auto it = params.begin(); it != params.end(); ++it) w = it->second;
  for (size_t i = 0; i < train.size(); ++i) {
    dt_tensor *y = dt_matmul(train[i].x, w); // expect-error: device-mismatch
    if (y == nullptr) {
      std::printf("step failed: %s\n", dt_last_error());
      return 1;
    }
    dt_free(y);
  }
  for (auto &kv : params) dt_free(kv.second);
  for (Batch &b : train) dt_free(b.x);
  for (Batch &b : eval) dt_free(b.x);
  return 0;
}
