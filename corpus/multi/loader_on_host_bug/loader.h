// corpus/multi/loader_on_host_bug/loader.h — a CSV-like data loader: rows are parsed on the host
// and handed out as tensors.
#ifndef LOADER_ON_HOST_LOADER_H
#define LOADER_ON_HOST_LOADER_H

#include <dt/dt.h>

typedef struct loader {
  dt_device dev; /* where batches should go */
  int cursor;
} loader;

void loader_open(loader *l, dt_device dev);
dt_tensor *loader_next(loader *l);

#endif
