// data.c — a loader that stages its batches on a file-static prefetch device.
#include "trainer.h"

static dt_device loader_dev;
static int cursor;

static void fill(float *v, int n) {
  for (int i = 0; i < n; i++)
    v[i] = (float)((i + cursor) % 4) * 0.25f;
}

void data_init(dt_device prefetch_dev) {
  loader_dev = prefetch_dev;
  cursor = 0;
}

dt_tensor *data_x_on(dt_device d) {
  float v[ROWS * FEAT];
  fill(v, ROWS * FEAT);
  cursor++;
  return dt_from_floats(d, v, 2, (const int64_t[]){ROWS, FEAT});
}

dt_tensor *data_next_x(void) {
  return data_x_on(loader_dev);
}

dt_tensor *data_next_y(void) {
  float v[ROWS];
  fill(v, ROWS);
  return dt_from_floats(loader_dev, v, 2, (const int64_t[]){ROWS, 1});
}
