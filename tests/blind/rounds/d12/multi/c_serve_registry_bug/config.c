// provenance: blind round d12
// run-env: SERVE_DEVICE=sim1 SERVE_BATCH=3
/* Server configuration: compute device and limits from the environment. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void serve_config_load(serve_config_t *c) {
  const char *d = getenv("SERVE_DEVICE");
  const char *b = getenv("SERVE_BATCH");
  if (d && strcmp(d, "sim1") == 0)
    c->compute = dt_sim(1);
  else
    c->compute = dt_sim(0);
  c->host = dt_cpu();
  c->max_batch = b ? atoi(b) : 4;
  if (c->max_batch < 1 || c->max_batch > 8) c->max_batch = 4;
  c->vocab = 10;
  c->hidden = 6;
  c->temperature = 0.8f;
}

void serve_config_print(const serve_config_t *c) {
  char a[32], h[32];
  dt_device_name(c->compute, a, sizeof a);
  dt_device_name(c->host, h, sizeof h);
  printf("compute=%s host=%s batch=%d vocab=%d hidden=%d\n", a, h, c->max_batch, c->vocab,
         c->hidden);
}
