// main.c — a weight trained on autodiff<sim:0> is saved, then restored for autodiff<sim:1> and cpu.
#include "ckpt.h"
#include <stdio.h>
int main(void) {
  dt_device a0 = dt_autodiff(dt_sim(0)), a1 = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_full(a0, 1.5f, 2, (const int64_t[]){2, 3}));
  ckpt_entry e;
  if (ckpt_save(w, &e) != 0) return 1;
  dt_tensor *w1 = ckpt_restore(&e, a1);
  dt_tensor *wc = ckpt_restore(&e, dt_cpu());
  dt_tensor *x1 = dt_ones(a1, DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *y1 = dt_matmul(x1, w1);
  dt_tensor *l = dt_sum(y1);
  dt_backward(l);
  dt_tensor *g = dt_grad(w1);
  dt_tensor *xc = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *yc = dt_matmul(xc, wc);
  float v[3], gv[6];
  dt_read_floats(yc, v, 3);
  dt_read_floats(g, gv, 6);
  printf("host %.1f grad %.1f (expect 3.0 1.0)\n", v[0], gv[0]);
  return v[0] == 3.0f && gv[0] == 1.0f ? 0 : 1;
}
