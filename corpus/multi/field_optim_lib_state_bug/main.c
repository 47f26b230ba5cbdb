// main.c — model on autodiff<sim:1> optimised with optim.c.
#include "optim.h"
#include <stdio.h>
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 1}));
  sgd opt;
  sgd_init(&opt, ad, 0.1f, 0.9f);
  sgd_add(&opt, &w, 2, 1);
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){3, 2});
  for (int it = 0; it < 3; it++) {
    dt_tensor *p = dt_matmul(x, w);
    dt_tensor *l = dt_mean(p);
    dt_backward(l);
    sgd_step(&opt);
    dt_free(p); dt_free(l);
  }
  printf("ok\n");
  return 0;
}
