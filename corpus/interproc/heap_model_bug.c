// corpus/interproc/heap_model_bug.c — the same heap-allocated model, but the input batch is made
// from a device stored in a second heap object (the data pipeline's config), which says sim:0
// while the model was created on sim:1. Bug: device-mismatch in model_forward's matmul.
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

typedef struct model {
  dt_tensor *w;
} model;

typedef struct pipeline_config {
  dt_device dev;
  int batch;
} pipeline_config;

static model *model_create(dt_device dev) {
  model *m = malloc(sizeof *m);
  if (m) m->w = dt_randn(dev, 1, 2, (const int64_t[]){4, 2});
  return m;
}

static dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  return dt_matmul(x, m->w); // expect-error: device-mismatch
}

int main(void) {
  model *m = model_create(dt_sim(1));
  pipeline_config *pc = malloc(sizeof *pc);
  if (!m || !pc) return 1;
  pc->dev = dt_sim(0);
  pc->batch = 3;
  dt_tensor *x = dt_randn(pc->dev, 2, 2, (const int64_t[]){pc->batch, 4});
  dt_tensor *y = model_forward(m, x);
  printf("y %lld\n", (long long)dt_numel(y));
  return 0;
}
