// corpus/multi/mlp_trainer/config.c — command-line parsing for the trainer.
#include <stdlib.h>
#include <string.h>

#include "config.h"

trainer_config config_from_args(int argc, char **argv) {
  trainer_config c = {1, 3, 4, 0.5f};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--host") == 0) c.use_accel = 0;
    if (strcmp(argv[i], "--epochs") == 0 && i + 1 < argc) c.epochs = atoi(argv[++i]);
  }
  if (c.epochs < 1) c.epochs = 1;
  return c;
}
