// corpus/multi/global_device/extract.h — feature extraction interface.
#ifndef GLOBAL_DEVICE_FEATURES_H
#define GLOBAL_DEVICE_FEATURES_H

#include <dt/dt.h>

dt_tensor *extract_features(int n);

#endif
