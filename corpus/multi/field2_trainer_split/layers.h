// Layer structs and an inline affine helper shared by every unit.
#ifndef LAYERS_H
#define LAYERS_H
#include <dt/dt.h>
typedef struct { dt_tensor *w; dt_tensor *b; } dense;
typedef struct { dt_device dev; dense *layers; int n; } model;
static inline dt_tensor *affine(const dt_tensor *x, const dense *l) {
  dt_tensor *h = dt_matmul(x, l->w); // expect-error: backend-mismatch
  dt_tensor *y = dt_add(h, l->b);
  dt_free(h);
  return y;
}
void model_init(model *m, dt_device d, int n);
dt_tensor *model_forward(const model *m, const dt_tensor *x);
dt_tensor *eval_on_host(const model *m);
#endif
