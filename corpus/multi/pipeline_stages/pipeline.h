// corpus/multi/pipeline_stages/pipeline.h — a two-stage pipeline over sim:0 and sim:1; the
// inline helper moves an activation onto a stage's device.
#ifndef PIPELINE_STAGES_PIPELINE_H
#define PIPELINE_STAGES_PIPELINE_H

#include <dt/dt.h>

typedef struct stage {
  dt_device dev;
  dt_tensor *w;
} stage;

static inline dt_tensor *onto_stage(const stage *s, const dt_tensor *x) {
  return dt_to_device(x, s->dev);
}

void stage1_init(stage *s);
void stage2_init(stage *s);
dt_tensor *stage1_run(const stage *s, const dt_tensor *x);
dt_tensor *stage2_run(const stage *s, const dt_tensor *h);

#endif
