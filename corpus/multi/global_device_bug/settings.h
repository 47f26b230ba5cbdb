// corpus/multi/global_device_bug/settings.h — the global training device, defined in settings.c.
#ifndef GLOBAL_DEVICE_BUG_SETTINGS_H
#define GLOBAL_DEVICE_BUG_SETTINGS_H

#include <dt/dt.h>

extern const dt_device k_train_device;

dt_tensor *make_weights(int in, int out);

#endif
