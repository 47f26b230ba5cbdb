#include "proj.h"
#include <stdio.h>

static float eval_batch(const model *m, const dt_tensor *x) {
  dt_tensor *y = model_forward(m, x);
  dt_tensor *l = dt_mean(y);
  float v = 0;
  dt_read_floats(l, &v, 1);
  dt_free(y);
  dt_free(l);
  return v;
}

static float evaluate(const model *m, const dataset *ds) {
  float s = 0;
  for (int i = 0; i < ds->nbatch; i++) {
    dt_tensor *x = dataset_batch(ds, i);
    s += eval_batch(m, x);
    dt_free(x);
  }
  return s / (float)ds->nbatch;
}

float run(dt_device dev, int epochs) {
  model m;
  model_init(&m, dev);
  dataset tr = dataset_train(dev);
  dataset va = dataset_valid();
  float v = 0;
  for (int e = 0; e < epochs; e++) {
    printf("epoch %d train %.3f\n", e, (double)evaluate(&m, &tr));
    v = evaluate(&m, &va);
  }
  model_free(&m);
  return v;
}
