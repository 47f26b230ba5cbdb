// corpus/interproc/heap_model_clean.c — the model lives on the heap: `model *m = calloc(…)`, a
// variable number of layers in a calloc'ed array of structs, init/forward/destroy through the
// pointer. Clean: the fields of heap objects carry the device init() was given.
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

typedef struct dense {
  dt_tensor *w, *b;
} dense;

typedef struct model {
  dt_device dev;
  int n_layers;
  dense *layers;
} model;

static model *model_create(dt_device dev, int n_layers, int width) {
  model *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->dev = dev;
  m->n_layers = n_layers;
  m->layers = calloc((size_t)n_layers, sizeof *m->layers);
  if (!m->layers) {
    free(m);
    return NULL;
  }
  for (int i = 0; i < n_layers; i++) {
    m->layers[i].w = dt_randn(dev, (uint64_t)i + 1, 2, (const int64_t[]){width, width});
    m->layers[i].b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){width});
  }
  return m;
}

static dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_relu(x);
  for (int i = 0; i < m->n_layers; i++) {
    const dense *l = &m->layers[i];
    dt_tensor *t = dt_matmul(h, l->w);
    dt_tensor *u = dt_add(t, l->b);
    dt_free(h);
    dt_free(t);
    h = dt_relu(u);
    dt_free(u);
  }
  return h;
}

static void model_destroy(model *m) {
  for (int i = 0; i < m->n_layers; i++) {
    dt_free(m->layers[i].w);
    dt_free(m->layers[i].b);
  }
  free(m->layers);
  free(m);
}

int main(void) {
  model *m = model_create(dt_sim(1), 3, 4);
  if (!m) return 1;
  dt_tensor *x = dt_randn(m->dev, 9, 2, (const int64_t[]){2, 4});
  dt_tensor *y = model_forward(m, x);
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  model_destroy(m);
  return 0;
}
