// device.h — the process-wide training device.
#ifndef DEVICE_H
#define DEVICE_H
#include <dt/dt.h>
extern dt_device g_train_device;
void device_setup(int use_second);
#endif
