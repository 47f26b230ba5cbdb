// corpus/multi/unit_statics_bug/decoder.c — the decoder's copy of `current` is cpu; setting it
// does not touch the encoder's copy.
#include "placement.h"

void decoder_setup(void) {
  current = dt_cpu();
  *placement_uses() = 1;
}

dt_tensor *decoder_make(const int64_t *shape) {
  (*placement_uses())++;
  return dt_ones(current, DT_FLOAT, 2, shape);
}
