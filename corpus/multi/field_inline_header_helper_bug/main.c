// main.c — uses rescale on a sim:1 tensor, where the inline helper's host identity breaks it.
#include "ops.h"
#include <stdio.h>
float host_eval(void);
int main(void) {
  printf("host %.1f\n", host_eval());
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *y = rescale(x, 0.5f);
  printf("%p\n", (void *)y);
  return 0;
}
