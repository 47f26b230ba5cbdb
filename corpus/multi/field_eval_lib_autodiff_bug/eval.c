// eval.c — copies weights to the host with dt_to_device; fine for plain weights only.
#include "eval.h"
float eval_on_host(const dt_tensor *w) {
  dt_tensor *hw = dt_to_device(w, dt_cpu()); // expect-error: autodiff-expected
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *y = dt_matmul(x, hw);
  dt_tensor *s = dt_sum(y);
  float v = 0;
  dt_read_floats(s, &v, 1);
  dt_free(hw); dt_free(x); dt_free(y); dt_free(s);
  return v;
}
