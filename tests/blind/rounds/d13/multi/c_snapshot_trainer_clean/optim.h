#ifndef SNAP_OPTIM_H
#define SNAP_OPTIM_H
#include "model.h"

typedef struct Adam {
  dt_tensor *m[MODEL_MAX_PARAMS], *v[MODEL_MAX_PARAMS];
  int n, t;
  float lr, b1, b2;
} Adam;

void adam_create(Adam *o, const Model *m, float lr);
void adam_destroy(Adam *o);
void adam_step(Adam *o, Model *m);
void adam_to(Adam *o, dt_device plain);

#endif
