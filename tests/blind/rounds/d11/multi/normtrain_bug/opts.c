// provenance: blind round d11
#include "opts.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void opts_from_env(run_opts *o, int argc, char **argv) {
  const char *a = getenv("NT_ACCEL");
  o->use_accel = !(a && !strcmp(a, "0"));
  o->epochs = 3;
  o->batch = 8;
  o->lr = 0.1f;
  o->log_prefix = "normtrain";
  for (int i = 1; i < argc; i++) {
    if (!strncmp(argv[i], "--epochs=", 9)) o->epochs = atoi(argv[i] + 9);
    else if (!strncmp(argv[i], "--lr=", 5)) o->lr = (float)atof(argv[i] + 5);
  }
  if (o->epochs < 1) o->epochs = 1;
}

dt_device select_device(const run_opts *o) {
  if (o->use_accel && dt_backend_available(DT_BACKEND_SIM)) return dt_sim(1);
  return dt_cpu();
}

void describe_device(const char *what, dt_device d) {
  char buf[48];
  dt_device_name(d, buf, sizeof buf);
  printf("%s: %s\n", what, buf);
}
