// Evaluation on the host: the input is made on cpu but the layers are used in place.
#include "layers.h"
dt_tensor *eval_on_host(const model *m) {
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 4});
  return affine(x, &m->layers[0]);
}
