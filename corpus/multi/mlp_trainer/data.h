// corpus/multi/mlp_trainer/data.h — a synthetic regression data set served in batches.
#ifndef MLP_TRAINER_DATA_H
#define MLP_TRAINER_DATA_H

#include <dt/dt.h>

#define DATA_BATCH 5

/* Batch b of the data set on device dev: inputs [DATA_BATCH, 3] and targets [DATA_BATCH, 1]. */
void data_batch(int b, dt_device dev, dt_tensor **x, dt_tensor **y);

#endif
