#include <stdio.h>
#include "model.h"
int main(void) {
  model_init();
  float total = 0;
  for (int i = 0; i < 3; i++) {
    dt_tensor *x = load_batch(i);
    total += train_step(x);
    dt_free(x);
  }
  printf("%f\n", total);
  return 0;
}
