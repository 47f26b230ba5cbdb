// Project: train on a device picked in main (sim:1 by default), evaluate on a host-side
// validation set produced by the data module. Six levels: main -> run -> evaluate -> eval_batch
// -> model_forward -> linear (static inline helper in this header).
#ifndef PROJ_H
#define PROJ_H
#include <dt/dt.h>

typedef struct { dt_device dev; dt_tensor *w1, *w2; } model;
typedef struct { dt_device dev; int nbatch; uint64_t seed; } dataset;

static inline dt_tensor *linear(const dt_tensor *x, const dt_tensor *w) {
  return dt_matmul(x, w); // expect-error: backend-mismatch
}

void model_init(model *m, dt_device dev);
dt_tensor *model_forward(const model *m, const dt_tensor *x);
void model_free(model *m);

dataset dataset_train(dt_device dev);
dataset dataset_valid(void);
dt_tensor *dataset_batch(const dataset *ds, int i);

float run(dt_device dev, int epochs);
#endif
