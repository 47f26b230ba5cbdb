// Model construction and forward pass.
#include "layers.h"
#include <stdlib.h>
void model_init(model *m, dt_device d, int n) {
  m->dev = d; m->n = n;
  m->layers = calloc((size_t)n, sizeof *m->layers);
  for (int i = 0; i < n; i++) {
    m->layers[i].w = dt_randn(d, (uint64_t)i, 2, (const int64_t[]){4, 4});
    m->layers[i].b = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){4});
  }
}
dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_to_device(x, m->dev);
  for (int i = 0; i < m->n; i++) {
    dt_tensor *y = affine(h, &m->layers[i]);
    dt_free(h); h = y;
  }
  return h;
}
