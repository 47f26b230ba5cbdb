// Model, optimizer and trainer types shared across the project.
#ifndef NN_H
#define NN_H
#include <dt/dt.h>
typedef struct { dt_tensor *w, *b; } layer;
typedef struct { dt_device dev; layer *layers; int n; } model;
typedef struct { dt_tensor **m, **v; int n; float lr, b1, b2; } adam;
typedef struct { model *net; adam *opt; int epochs; } trainer;
int model_create(model *m, dt_device base, const int *widths, int n);
dt_tensor *model_forward(const model *m, const dt_tensor *x);
int adam_create(adam *o, const model *m, float lr);
void adam_step(adam *o, model *m);
#endif
