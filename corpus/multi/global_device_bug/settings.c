// corpus/multi/global_device_bug/settings.c — the training device is sim:1; weights are created
// on it.
#include "settings.h"

const dt_device k_train_device = {DT_BACKEND_SIM, 1, 0};

dt_tensor *make_weights(int in, int out) {
  return dt_randn(k_train_device, 4, 2, (const int64_t[]){in, out});
}
