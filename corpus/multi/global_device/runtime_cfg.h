// corpus/multi/global_device/runtime_cfg.h — process-wide settings shared by every translation
// unit: the device, declared here and defined in runtime_cfg.c.
#ifndef GLOBAL_DEVICE_RUNTIME_CFG_H
#define GLOBAL_DEVICE_RUNTIME_CFG_H

#include <dt/dt.h>

extern dt_device g_device;
extern int g_verbose;

#endif
