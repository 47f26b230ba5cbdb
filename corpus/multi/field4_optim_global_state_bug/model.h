#ifndef MODEL_H
#define MODEL_H
#include <dt/dt.h>
typedef struct { dt_device ad; dt_tensor *w; } model;
void model_init(model *m, dt_device ad);
float model_step(model *m, const dt_tensor *x);
#endif
