// train.c — linear model on autodiff<cpu> trained with loss.c.
#include "loss.h"
#include <stdio.h>
int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){2, 1}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){3, 2});
  const float y[3] = {1, 2, 3};
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *l = regression_loss(p, y, 3);
  dt_backward(l);
  printf("ok\n");
  return 0;
}
