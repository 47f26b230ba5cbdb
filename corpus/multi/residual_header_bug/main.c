// corpus/multi/residual_header_bug/main.c — runs two encoder blocks and the head on sim:1.
#include <stdio.h>

#include "blocks.h"

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){4, 4});
  dt_tensor *x = dt_randn(dev, 2, 2, (const int64_t[]){2, 4});
  dt_tensor *h1 = encoder_block(x, w);
  dt_tensor *h2 = encoder_block(h1, w);
  dt_tensor *y = head_block(h2, w);
  printf("y %lld\n", (long long)dt_numel(y));
  return 0;
}
