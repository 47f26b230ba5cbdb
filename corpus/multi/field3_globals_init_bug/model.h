// A trainer split over files: init.c sets the global model up on autodiff<sim:0>, data.c
// loads batches, train.c runs the step. The loader makes plain batches on sim:0.
#ifndef MODEL_H
#define MODEL_H
#include <dt/dt.h>
typedef struct { dt_device dev; dt_tensor *w, *b; int ready; } model;
extern model g_model;
void model_init(void);
dt_tensor *load_batch(int i);
float train_step(const dt_tensor *x);
#endif
