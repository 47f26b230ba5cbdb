/* examples/train/src/model.c — loads the weights on the simulated accelerator sim:0. */
#include "model.h"

dt_tensor *model_load_weights(void) {
  static const float w[4] = {0.5f, -0.5f, 0.25f, 1.0f};
  return dt_from_floats(dt_sim(0), w, 2, (const int64_t[]){2, 2});
}
