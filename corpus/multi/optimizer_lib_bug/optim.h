// corpus/multi/optimizer_lib_bug/optim.h — a small optimizer library: momentum SGD over a list of
// trainable parameters.
#ifndef OPTIMIZER_LIB_BUG_OPTIM_H
#define OPTIMIZER_LIB_BUG_OPTIM_H

#include <dt/dt.h>

typedef struct momentum_sgd {
  dt_device dev;      /* the autodiff training device */
  dt_tensor *velocity; /* plain, on the inner device */
  float lr, beta;
} momentum_sgd;

void optim_init(momentum_sgd *o, dt_device dev, int rows, int cols, float lr);
void optim_step(momentum_sgd *o, dt_tensor **param);
void optim_free(momentum_sgd *o);

#endif
