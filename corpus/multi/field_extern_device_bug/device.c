// device.c — defines and sets the global device.
#include "device.h"
dt_device g_train_device;
void device_setup(int use_second) { g_train_device = dt_autodiff(dt_sim(use_second ? 1 : 0)); }
