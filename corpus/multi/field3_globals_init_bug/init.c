#include "model.h"
model g_model;
void model_init(void) {
  g_model.dev = dt_autodiff(dt_sim(0));
  g_model.w = dt_require_grad(dt_randn(g_model.dev, 1, 2, (const int64_t[]){4, 2}));
  g_model.b = dt_require_grad(dt_zeros(g_model.dev, DT_FLOAT, 1, (const int64_t[]){2}));
  g_model.ready = 1;
}
