// corpus/multi/mlp_trainer/data.c — builds each batch on the host side and creates it directly
// on the requested device.
#include "data.h"

void data_batch(int b, dt_device dev, dt_tensor **x, dt_tensor **y) {
  float xs[DATA_BATCH * 3], ys[DATA_BATCH];
  for (int i = 0; i < DATA_BATCH; i++) {
    float s = 0;
    for (int j = 0; j < 3; j++) {
      xs[i * 3 + j] = (float)(((b * DATA_BATCH + i) * 5 + j * 3) % 7) / 7.0f;
      s += xs[i * 3 + j];
    }
    ys[i] = 0.5f * s;
  }
  *x = dt_from_floats(dev, xs, 2, (const int64_t[]){DATA_BATCH, 3});
  *y = dt_from_floats(dev, ys, 2, (const int64_t[]){DATA_BATCH, 1});
}
