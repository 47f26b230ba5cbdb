#include <stdio.h>
#include "ops.h"
int main(void) {
  dt_tensor *x = dt_randn(dt_sim(1), 3, 2, (const int64_t[]){2, 4});
  dt_tensor *h = encode(x);
  dt_tensor *o = head(h);
  printf("%p\n", (void *)o);
  return 0;
}
