#include "model.h"
dt_tensor *load_batch(int i) {
  return dt_randn(dt_inner_device(g_model.dev), (uint64_t)i, 2, (const int64_t[]){3, 4});
}
