// Data loader project: loader.c owns a shuffled dataset of samples (array of structs, copied
// out by value at a permuted index); the samples' labels are int class ids. train.c feeds the
// labels to an mse loss (kind bug, seen only through the loader's struct copy).
#ifndef LOADER_H
#define LOADER_H
#include <dt/dt.h>
typedef struct { dt_tensor *x, *y; } sample;
typedef struct { sample items[4]; int perm[4]; int pos; dt_device dev; } loader;
void loader_init(loader *l, dt_device d);
sample loader_next(loader *l);
float train_on(const sample *s, const dt_tensor *w);
static inline int loader_done(const loader *l) { return l->pos >= 4; }
#endif
