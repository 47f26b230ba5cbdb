// corpus/multi/pipeline_stages/stage1.c — the first stage, on sim:0.
#include "pipeline.h"

void stage1_init(stage *s) {
  s->dev = dt_sim(0);
  s->w = dt_randn(s->dev, 1, 2, (const int64_t[]){4, 8});
}

dt_tensor *stage1_run(const stage *s, const dt_tensor *x) {
  dt_tensor *in = onto_stage(s, x);
  dt_tensor *h = dt_matmul(in, s->w);
  dt_tensor *a = dt_relu(h);
  dt_free(h);
  dt_free(in);
  return a;
}
