// train.c — trains one dense layer from layers.c on autodiff<sim:1>.
#include "layers.h"
#include <stdio.h>
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dense d;
  dense_init(&d, ad, 3, 1);
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dense_forward(&d, x);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  printf("ok\n");
  return 0;
}
