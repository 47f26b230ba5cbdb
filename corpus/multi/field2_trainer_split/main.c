// Entry point: train-ish forward on sim:0, then host evaluation.
#include "layers.h"
#include <stdio.h>
int main(void) {
  model m;
  model_init(&m, dt_sim(0), 3);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *y = model_forward(&m, x);
  float v[8]; dt_read_floats(y, v, 8);
  printf("%f\n", v[0]);
  dt_tensor *e = eval_on_host(&m);
  printf("%p\n", (void *)e);
  return 0;
}
