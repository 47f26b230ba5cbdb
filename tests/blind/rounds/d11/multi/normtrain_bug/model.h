// provenance: blind round d11
#ifndef NORMTRAIN_MODEL_H
#define NORMTRAIN_MODEL_H
#include <dt/dt.h>

#define NT_FEAT 4
#define NT_HID 8

typedef struct nt_model {
  dt_device ad;        /* autodiff wrapper of the device it was initialised on */
  dt_tensor *w1, *b1, *w2;
} nt_model;

void model_init(nt_model *m, dt_device dev);
dt_tensor *model_forward(const nt_model *m, const dt_tensor *x);
void model_sgd(nt_model *m, float lr);
void model_free(nt_model *m);

#endif
