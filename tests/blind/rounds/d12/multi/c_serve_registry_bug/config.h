// provenance: blind round d12
#ifndef SERVE_CONFIG_H
#define SERVE_CONFIG_H
#include <dt/dt.h>

typedef struct {
  dt_device compute;     /* where the model runs */
  dt_device host;        /* staging / post-processing */
  int max_batch;
  int vocab;
  int hidden;
  float temperature;
} serve_config_t;

void serve_config_load(serve_config_t *c);
void serve_config_print(const serve_config_t *c);
#endif
