// corpus/multi/unit_statics_clean/placement.h — every unit that includes this header gets its own
// `current` device (a static global) and its own cache in placement_cache() (a static local of a
// static inline function): one object per translation unit, not one per program.
#ifndef PLACEMENT_H
#define PLACEMENT_H
#include <dt/dt.h>

static dt_device current;

static inline int *placement_uses(void) {
  static int uses;
  return &uses;
}

void encoder_setup(void);
dt_tensor *encoder_make(const int64_t *shape);
void decoder_setup(void);
dt_tensor *decoder_make(const int64_t *shape);
#endif
