// host_eval.c — uses rescale on host tensors (fine).
#include "ops.h"
float host_eval(void) {
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *y = rescale(x, 2.0f);
  dt_tensor *s = dt_sum(y);
  float v;
  dt_read_floats(s, &v, 1);
  dt_free(x); dt_free(y); dt_free(s);
  return v;
}
