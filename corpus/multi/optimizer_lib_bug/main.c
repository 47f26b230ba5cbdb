// corpus/multi/optimizer_lib_bug/main.c — trains one weight matrix with the optimizer library.
#include <stdio.h>

#include "optim.h"

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 2}));
  momentum_sgd opt;
  optim_init(&opt, ad, 3, 2, 0.05f);
  for (int step = 0; step < 2; step++) {
    dt_tensor *x = dt_randn(ad, 10 + (uint64_t)step, 2, (const int64_t[]){4, 3});
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *loss = dt_mean(y);
    dt_backward(loss);
    optim_step(&opt, &w);
    dt_free(loss);
    dt_free(y);
    dt_free(x);
  }
  optim_free(&opt);
  dt_free(w);
  return 0;
}
