// corpus/multi/residual_header_bug/block.c — an encoder block with a residual connection; both
// operands on the input's device.
#include "blocks.h"

dt_tensor *encoder_block(const dt_tensor *x, const dt_tensor *w) {
  dt_tensor *t = dt_matmul(x, w);
  dt_tensor *a = dt_relu(t);
  dt_tensor *y = residual(x, a);
  dt_free(a);
  dt_free(t);
  return y;
}
