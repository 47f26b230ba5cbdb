// corpus/multi/residual_header_bug/head.c — the head keeps a copy of its input on the host "for
// logging" and passes that copy as the skip connection.
#include "blocks.h"

dt_tensor *head_block(const dt_tensor *h, const dt_tensor *w) {
  dt_tensor *skip = dt_to_device(h, dt_cpu());
  dt_tensor *t = dt_matmul(h, w);
  dt_tensor *y = residual(skip, t);
  dt_free(t);
  dt_free(skip);
  return y;
}
