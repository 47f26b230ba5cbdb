// corpus/multi/unit_statics_clean/encoder.c — the encoder's copy of `current` is sim:1.
#include "placement.h"

void encoder_setup(void) {
  current = dt_sim(1);
  *placement_uses() = 1;
}

dt_tensor *encoder_make(const int64_t *shape) {
  (*placement_uses())++;
  return dt_ones(current, DT_FLOAT, 2, shape);
}
