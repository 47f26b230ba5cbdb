// corpus/multi/loader_on_host_bug/model.h — a linear scoring model.
#ifndef LOADER_ON_HOST_MODEL_H
#define LOADER_ON_HOST_MODEL_H

#include <dt/dt.h>

typedef struct scorer {
  dt_tensor *w, *b;
} scorer;

void scorer_init(scorer *s, dt_device dev);
dt_tensor *scorer_apply(const scorer *s, const dt_tensor *x);

#endif
