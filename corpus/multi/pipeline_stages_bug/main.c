// corpus/multi/pipeline_stages_bug/main.c — places the encoder on sim:0 and the head on sim:1
// and runs one batch through both.
#include <stdio.h>

#include "stages.h"

int main(void) {
  stage enc, head;
  stage_init(&enc, dt_sim(0), 4, 4, 1);
  stage_init(&head, dt_sim(1), 4, 1, 2);
  dt_tensor *x = dt_randn(dt_cpu(), 3, 2, (const int64_t[]){2, 4});
  dt_tensor *h = encoder_run(&enc, x);
  dt_tensor *y = head_run(&head, h);
  printf("y %lld\n", (long long)dt_numel(y));
  return 0;
}
