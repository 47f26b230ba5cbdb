// loader.h — a tiny in-memory data loader.
#ifndef LOADER_H
#define LOADER_H
#include <dt/dt.h>
typedef struct { const float *x; const float *y; int n, bs, pos; } loader;
int loader_next(loader *l, dt_tensor **x, dt_tensor **y);
#endif
