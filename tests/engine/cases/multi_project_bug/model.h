// Shared declarations of a small multi-file project, with an inline helper.
#ifndef MODEL_H
#define MODEL_H
#include <dt/dt.h>
typedef struct model { dt_tensor *w; dt_device dev; } model;
extern dt_device g_train_device;
void model_init(model *m);
dt_tensor *model_forward(const model *m, const dt_tensor *x);
static inline dt_tensor *residual(const dt_tensor *x, const dt_tensor *fx) {
  return dt_add(x, fx); // expect-error: backend-mismatch
}
#endif
