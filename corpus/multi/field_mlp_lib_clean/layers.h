// layers.h — dense layers for the mlp_lib_clean project.
#ifndef LAYERS_H
#define LAYERS_H
#include <dt/dt.h>
typedef struct { dt_tensor *w, *b; } dense;
void dense_init(dense *d, dt_device dev, int64_t in, int64_t out, uint64_t seed);
dt_tensor *dense_forward(const dense *d, const dt_tensor *x);
void dense_free(dense *d);
#endif
