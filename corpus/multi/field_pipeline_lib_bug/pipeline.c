// pipeline.c — two stages, sim:0 then sim:1; the hand-off between them is missing.
#include "stage.h"
#include <stdio.h>
int main(void) {
  stage first, second;
  stage_init(&first, dt_sim(0));
  stage_init(&second, dt_sim(1));
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *h = stage_forward(&first, x);
  dt_tensor *y = stage_forward(&second, h);
  printf("%p\n", (void *)y);
  return 0;
}
