#include <stdio.h>
#include "loader.h"
int main(void) {
  loader l;
  loader_init(&l, dt_sim(0));
  dt_tensor *w = dt_randn(l.dev, 9, 2, (const int64_t[]){3, 1});
  float total = 0;
  while (!loader_done(&l)) {
    sample s = loader_next(&l);
    total += train_on(&s, w);
  }
  printf("%f\n", total);
  return 0;
}
