// provenance: blind round d11
#ifndef NORMTRAIN_OPTS_H
#define NORMTRAIN_OPTS_H
#include <dt/dt.h>

typedef struct run_opts {
  int use_accel;      /* NT_ACCEL=0 forces the host */
  int epochs;
  int batch;
  float lr;
  const char *log_prefix;
} run_opts;

void opts_from_env(run_opts *o, int argc, char **argv);
dt_device select_device(const run_opts *o);   /* plain device; the model wraps it */
void describe_device(const char *what, dt_device d);

#endif
