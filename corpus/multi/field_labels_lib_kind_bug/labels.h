// labels.h — label loading.
#ifndef LABELS_H
#define LABELS_H
#include <dt/dt.h>
dt_tensor *load_labels(dt_device dev, const int64_t *raw, int n);
#endif
