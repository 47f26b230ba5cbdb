// corpus/multi/mlp_trainer/optim.h — plain SGD over parameter slots.
#ifndef MLP_TRAINER_OPTIM_H
#define MLP_TRAINER_OPTIM_H

#include <dt/dt.h>

void sgd_step(dt_device dev, dt_tensor **const *slots, int n, float lr);

#endif
