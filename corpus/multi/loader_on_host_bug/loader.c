// corpus/multi/loader_on_host_bug/loader.c — the loader's implementation. It records the target
// device but builds every batch on the host (the upload step was lost in a refactor).
#include "loader.h"

void loader_open(loader *l, dt_device dev) {
  l->dev = dev;
  l->cursor = 0;
}

dt_tensor *loader_next(loader *l) {
  float rows[2 * 4];
  for (int i = 0; i < 8; i++) rows[i] = (float)((l->cursor * 8 + i) % 5) * 0.25f;
  l->cursor++;
  return dt_from_floats(dt_cpu(), rows, 2, (const int64_t[]){2, 4});
}
