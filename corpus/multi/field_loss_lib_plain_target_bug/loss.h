// loss.h — losses for the trainer.
#ifndef LOSS_H
#define LOSS_H
#include <dt/dt.h>
dt_tensor *regression_loss(const dt_tensor *pred, const float *target, int n);
#endif
