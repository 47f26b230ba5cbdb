#include "proj.h"

dataset dataset_train(dt_device dev) {
  dataset d = { dev, 3, 100 };
  return d;
}

dataset dataset_valid(void) {
  dataset d = { dt_cpu(), 1, 900 };
  return d;
}

dt_tensor *dataset_batch(const dataset *ds, int i) {
  return dt_randn(ds->dev, ds->seed + (uint64_t)i, 2, (const int64_t[]){2, 4});
}
