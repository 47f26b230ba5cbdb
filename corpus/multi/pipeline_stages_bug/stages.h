// corpus/multi/pipeline_stages_bug/stages.h — the two-stage pipeline's interface.
#ifndef PIPELINE_STAGES_BUG_STAGES_H
#define PIPELINE_STAGES_BUG_STAGES_H

#include <dt/dt.h>

typedef struct stage {
  dt_device dev;
  dt_tensor *w;
} stage;

void stage_init(stage *s, dt_device dev, int in, int out, uint64_t seed);
dt_tensor *encoder_run(const stage *s, const dt_tensor *x);
dt_tensor *head_run(const stage *s, const dt_tensor *h);

#endif
