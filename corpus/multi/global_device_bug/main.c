// corpus/multi/global_device_bug/main.c — the batches are created on dt_sim(0), not on the
// global training device defined in settings.c (sim:1). Bug: device-mismatch at the matmul,
// with the weights' tag coming from another translation unit.
#include <stdio.h>

#include "settings.h"

int main(void) {
  dt_tensor *w = make_weights(5, 2);
  dt_tensor *x = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){3, 5});
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
