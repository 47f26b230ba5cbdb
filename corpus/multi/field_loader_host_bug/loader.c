// loader.c — batches are materialised on the host (dt_cpu) for the caller to move.
#include "loader.h"
int loader_next(loader *l, dt_tensor **x, dt_tensor **y) {
  if (l->pos + l->bs > l->n) return 0;
  *x = dt_from_floats(dt_cpu(), l->x + 2 * l->pos, 2, (const int64_t[]){l->bs, 2});
  *y = dt_from_floats(dt_cpu(), l->y + l->pos, 2, (const int64_t[]){l->bs, 1});
  l->pos += l->bs;
  return 1;
}
