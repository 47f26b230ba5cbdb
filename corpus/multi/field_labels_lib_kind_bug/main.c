// main.c — regresses onto the labels as if they were floats.
#include "labels.h"
#include <stdio.h>
int main(void) {
  dt_device dev = dt_autodiff(dt_sim(1));
  const int64_t raw[4] = {0, 1, 1, 0};
  dt_tensor *y = load_labels(dev, raw, 4);
  dt_tensor *w = dt_require_grad(dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *p = dt_sigmoid(dt_matmul(x, w));
  dt_tensor *diff = dt_sub(p, y); // expect-error: kind-mismatch
  printf("%p\n", (void *)diff);
  return 0;
}
