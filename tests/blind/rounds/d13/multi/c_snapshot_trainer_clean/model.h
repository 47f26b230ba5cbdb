#ifndef SNAP_MODEL_H
#define SNAP_MODEL_H
#include <dt/dt.h>

#define MODEL_MAX_PARAMS 8

typedef struct Model {
  dt_device ad;                 /* autodiff device of the parameters */
  int n_params;
  dt_tensor *p[MODEL_MAX_PARAMS];
  int rank[MODEL_MAX_PARAMS];
  int64_t shape[MODEL_MAX_PARAMS][2];
} Model;

void model_create(Model *m, dt_device plain, const int64_t *widths, int n_layers);
void model_destroy(Model *m);
dt_tensor *model_forward(const Model *m, const dt_tensor *x);
/* Re-homes every parameter on autodiff<plain> as a fresh leaf. */
void model_to(Model *m, dt_device plain);
/* Replaces parameter i by a fresh leaf holding `value` (plain, on the model's inner device). */
void model_set(Model *m, int i, dt_tensor *value);

#endif
