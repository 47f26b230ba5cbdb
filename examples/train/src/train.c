/* examples/train/src/train.c — one step: a cpu batch added to the weights of src/model.c, which
   live on sim:0 (the backend mismatch that tagcheck reports and dt_add stops at). */
#include <stdio.h>

#include "model.h"

int main(void) {
  dt_tensor *w = model_load_weights();
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 2});
  dt_tensor *y = dt_add(w, x);
  printf("step done: %lld values\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
