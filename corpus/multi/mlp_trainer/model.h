// corpus/multi/mlp_trainer/model.h — a two-layer perceptron: parameters, init, forward, free.
#ifndef MLP_TRAINER_MODEL_H
#define MLP_TRAINER_MODEL_H

#include <dt/dt.h>

#define MODEL_IN 3
#define MODEL_HIDDEN 6

typedef struct model {
  dt_device dev;
  dt_tensor *w1, *b1, *w2;
} model;

void model_init(model *m, dt_device dev);
dt_tensor *model_forward(const model *m, const dt_tensor *x);
/* The parameter slots, for the optimizer. Returns how many. */
int model_params(model *m, dt_tensor ***slots, int cap);
void model_free(model *m);

#endif
