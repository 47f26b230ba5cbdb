// corpus/multi/checkpoint_tool/checkpoint.h — saving tracked parameters to host memory and
// restoring them onto any autodiff device.
#ifndef CHECKPOINT_TOOL_CHECKPOINT_H
#define CHECKPOINT_TOOL_CHECKPOINT_H

#include <dt/dt.h>

#define CKPT_MAX 16

typedef struct checkpoint {
  float *data[CKPT_MAX];
  int64_t rows[CKPT_MAX], cols[CKPT_MAX];
  int n;
} checkpoint;

int checkpoint_save(checkpoint *c, dt_tensor *const *params, int n);
/* Restores every saved tensor onto `ad` (an autodiff device) as a trainable leaf. */
int checkpoint_restore(const checkpoint *c, dt_device ad, dt_tensor **out);
void checkpoint_free(checkpoint *c);

#endif
