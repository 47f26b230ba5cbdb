// corpus/multi/mlp_trainer/config.h — the trainer's run configuration and the inline helper
// that turns it into the training device (autodiff over the chosen backend).
#ifndef MLP_TRAINER_CONFIG_H
#define MLP_TRAINER_CONFIG_H

#include <dt/dt.h>

typedef struct trainer_config {
  int use_accel; /* 1: sim:0, 0: host */
  int epochs;
  int batches;
  float lr;
} trainer_config;

static inline dt_device config_train_device(const trainer_config *c) {
  dt_device base = c->use_accel ? dt_sim(0) : dt_cpu();
  return dt_autodiff(base);
}

trainer_config config_from_args(int argc, char **argv);

#endif
