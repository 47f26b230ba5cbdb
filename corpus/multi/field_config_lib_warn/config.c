// config.c — "--device sim" moves the model but the data device keeps its default.
#include "config.h"
#include <string.h>
void config_parse(config *c, int argc, char **argv) {
  c->model_dev = dt_cpu();
  c->data_dev = dt_cpu();
  c->epochs = 1;
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--device") == 0 && strcmp(argv[i + 1], "sim") == 0) c->model_dev = dt_sim(0);
}
