// corpus/multi/pipeline_stages/stage2.c — the second stage, on sim:1; it moves its input onto
// its own device first.
#include "pipeline.h"

void stage2_init(stage *s) {
  s->dev = dt_sim(1);
  s->w = dt_randn(s->dev, 2, 2, (const int64_t[]){8, 2});
}

dt_tensor *stage2_run(const stage *s, const dt_tensor *h) {
  dt_tensor *in = onto_stage(s, h);
  dt_tensor *y = dt_matmul(in, s->w);
  dt_free(in);
  return y;
}
