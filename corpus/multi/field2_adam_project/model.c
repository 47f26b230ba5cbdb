// Model construction on an autodiff device and its forward pass.
#include "nn.h"
#include <stdlib.h>
int model_create(model *m, dt_device base, const int *widths, int n) {
  m->dev = dt_autodiff(base);
  m->n = n;
  m->layers = calloc((size_t)n, sizeof *m->layers);
  if (!m->layers) return -1;
  for (int i = 0; i < n; i++) {
    m->layers[i].w = dt_require_grad(dt_randn(m->dev, (uint64_t)i, 2, (const int64_t[]){widths[i], widths[i + 1]}));
    m->layers[i].b = dt_require_grad(dt_zeros(m->dev, DT_FLOAT, 1, (const int64_t[]){widths[i + 1]}));
  }
  return 0;
}
dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_detach(x);
  for (int i = 0; i < m->n; i++) {
    dt_tensor *z = dt_matmul(h, m->layers[i].w);
    dt_tensor *a = dt_add(z, m->layers[i].b);
    dt_free(z); dt_free(h);
    h = i + 1 < m->n ? dt_relu(a) : a;
    if (h != a) dt_free(a);
  }
  return h;
}
