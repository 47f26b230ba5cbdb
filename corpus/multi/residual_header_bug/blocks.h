// corpus/multi/residual_header_bug/blocks.h — shared building blocks, as inline helpers in a
// header. residual() is correct for the encoder (block.c) and fails for the head (head.c),
// which passes a skip connection kept on the host: backend-mismatch here, an error for the
// head's calling context.
#ifndef RESIDUAL_HEADER_BUG_BLOCKS_H
#define RESIDUAL_HEADER_BUG_BLOCKS_H

#include <dt/dt.h>

static inline dt_tensor *residual(const dt_tensor *x, const dt_tensor *fx) {
  return dt_add(x, fx); // expect-error: backend-mismatch
}

dt_tensor *encoder_block(const dt_tensor *x, const dt_tensor *w);
dt_tensor *head_block(const dt_tensor *h, const dt_tensor *w);

#endif
