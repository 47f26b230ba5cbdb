// corpus/multi/pipeline_stages/main.c — runs micro-batches from the host through both stages
// and back. Clean: every crossing between devices goes through onto_stage (an inline helper in
// the shared header) or an explicit dt_to_device.
#include <stdio.h>

#include "pipeline.h"

int main(void) {
  stage s1, s2;
  stage1_init(&s1);
  stage2_init(&s2);
  dt_tensor *bias = dt_full(dt_cpu(), 0.5f, 1, (const int64_t[]){2});
  for (int mb = 0; mb < 3; mb++) {
    dt_tensor *x = dt_randn(dt_cpu(), (uint64_t)mb, 2, (const int64_t[]){3, 4});
    dt_tensor *h = stage1_run(&s1, x);
    dt_tensor *y = stage2_run(&s2, h);
    dt_tensor *back = dt_to_device(y, dt_cpu());
    dt_tensor *out = dt_add(back, bias);
    printf("micro-batch %d: %lld outputs\n", mb, (long long)dt_numel(out));
    dt_free(out);
    dt_free(back);
    dt_free(y);
    dt_free(h);
    dt_free(x);
  }
  dt_free(bias);
  dt_free(s1.w);
  dt_free(s2.w);
  return 0;
}
