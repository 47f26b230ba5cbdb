// main.c — selects sim:1 for training, so the bias from model.c lands on the wrong ordinal.
#include "device.h"
#include <stdio.h>
dt_tensor *model_weight(void);
dt_tensor *model_bias(void);
int main(void) {
  device_setup(1);
  dt_tensor *w = model_weight(), *b = model_bias();
  dt_tensor *x = dt_ones(g_train_device, DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *h = dt_matmul(x, w);
  dt_tensor *y = dt_add(h, b); // expect-error: device-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
