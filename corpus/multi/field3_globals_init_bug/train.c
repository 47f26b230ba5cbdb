#include "model.h"
float train_step(const dt_tensor *x) {
  dt_tensor *z = dt_matmul(x, g_model.w); // expect-error: autodiff-expected
  dt_tensor *y = dt_add(z, g_model.b);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  float v = 0;
  dt_tensor *li = dt_inner(l);
  dt_read_floats(li, &v, 1);
  dt_free(z); dt_free(y); dt_free(l); dt_free(li);
  return v;
}
