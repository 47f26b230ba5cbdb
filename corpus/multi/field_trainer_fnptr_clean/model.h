// model.h — a model interface through function pointers (init / forward).
#ifndef MODEL_H
#define MODEL_H
#include <dt/dt.h>
typedef struct model model;
struct model {
  dt_tensor *w;
  dt_device dev;
  void (*init)(model *, dt_device);
  dt_tensor *(*forward)(const model *, const dt_tensor *);
};
void linear_model(model *m);
#endif
