#include "loader.h"
void loader_init(loader *l, dt_device d) {
  l->dev = d;
  l->pos = 0;
  for (int i = 0; i < 4; i++) {
    l->items[i].x = dt_randn(d, (uint64_t)i, 2, (const int64_t[]){2, 3});
    l->items[i].y = dt_from_ints(d, (const int64_t[]){i % 2, (i + 1) % 2}, 2, (const int64_t[]){2, 1});
    l->perm[i] = (i * 3) % 4;
  }
}
sample loader_next(loader *l) {
  sample s = l->items[l->perm[l->pos]];
  l->pos++;
  return s;
}
