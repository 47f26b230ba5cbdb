#ifndef SNAP_DEVICE_H
#define SNAP_DEVICE_H
#include <dt/dt.h>

/* "cpu", "sim0", "sim1", "cuda" (cuda falls back to `fallback` when unavailable). */
dt_device device_parse(const char *name, dt_device fallback);
dt_device device_from_env(const char *var, dt_device fallback);
const char *device_str(dt_device d);

#endif
