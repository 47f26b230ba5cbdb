// corpus/multi/global_device/runtime_cfg.c — the definitions, with a constant initializer.
#include "runtime_cfg.h"

dt_device g_device = {DT_BACKEND_SIM, 1, 0};
int g_verbose = 1;
