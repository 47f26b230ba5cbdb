#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dt_device device_parse(const char *name, dt_device fallback) {
  if (!name || !*name) return fallback;
  if (!strcmp(name, "cpu")) return dt_cpu();
  if (!strncmp(name, "sim", 3)) {
    int ord = atoi(name + 3);
    return dt_sim(ord == 1 ? 1 : 0);
  }
  if (!strcmp(name, "cuda")) {
    if (dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
    fprintf(stderr, "no CUDA device; staying on %s\n", device_str(fallback));
    return fallback;
  }
  fprintf(stderr, "unknown device '%s'\n", name);
  return fallback;
}

dt_device device_from_env(const char *var, dt_device fallback) {
  return device_parse(getenv(var), fallback);
}

const char *device_str(dt_device d) {
  static char buf[4][32];
  static int next;
  char *b = buf[next++ % 4];
  dt_device_name(d, b, sizeof buf[0]);
  return b;
}
