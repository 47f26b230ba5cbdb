// The data loader: synthetic batches staged on the configured data device; a host copy made on
// the global default device is used to check the batch before staging.
#include "trainer.hpp"

#include <vector>

namespace mt {

Loader::Loader(const RunConfig &cfg, int seed)
    : dev_(cfg.data_dev), batch_(cfg.batch), features_(cfg.features), counter_(seed) {}

Batch Loader::next() {
  std::vector<float> xs(static_cast<size_t>(batch_ * features_));
  std::vector<float> ys(static_cast<size_t>(batch_));
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>((static_cast<int>(i) * 3 + counter_) % 11) / 11.0f;
  for (size_t i = 0; i < ys.size(); ++i) ys[i] = xs[i * static_cast<size_t>(features_)];
  ++counter_;
  const int64_t xshape[] = {batch_, features_};
  const int64_t yshape[] = {batch_, 1};
  dt_tensor *hx = dt_from_floats(g_default_device, xs.data(), 2, xshape);
  dt_tensor *check = dt_sum(hx);
  float total = 0.0f;
  dt_read_floats(check, &total, 1);
  dt_free(check);
  Batch b;
  b.x = move_to(hx, dev_);
  b.y = dt_from_floats(dev_, ys.data(), 2, yshape);
  return b;
}

void Loader::release(Batch &b) {
  dt_free(b.x);
  dt_free(b.y);
  b.x = b.y = nullptr;
}

}  // namespace mt
