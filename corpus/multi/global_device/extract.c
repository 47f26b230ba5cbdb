// corpus/multi/global_device/extract.c — feature extraction on the global device.
#include "extract.h"
#include "runtime_cfg.h"

dt_tensor *extract_features(int n) {
  dt_tensor *raw = dt_randn(g_device, (uint64_t)n, 2, (const int64_t[]){n, 3});
  dt_tensor *f = dt_sigmoid(raw);
  dt_free(raw);
  return f;
}
