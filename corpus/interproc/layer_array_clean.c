// corpus/interproc/layer_array_clean.c — a deep MLP as an array of layer structs initialized
// in a loop (each layer's fields set from the same device), a forward loop over the array that
// reassigns the activation, and a parameter count through pointers into the array. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define DEPTH 4
#define WIDTH 5

typedef struct layer {
  dt_tensor *w, *b;
} layer;

static void layers_init(layer *ls, int n, dt_device dev) {
  for (int i = 0; i < n; i++) {
    ls[i].w = dt_randn(dev, (uint64_t)i, 2, (const int64_t[]){WIDTH, WIDTH});
    ls[i].b = dt_full(dev, 0.01f, 1, (const int64_t[]){WIDTH});
  }
}

static dt_tensor *layers_forward(const layer *ls, int n, const dt_tensor *x) {
  dt_tensor *h = dt_detach(x);
  for (int i = 0; i < n; i++) {
    dt_tensor *t = dt_matmul(h, ls[i].w);
    dt_tensor *u = dt_add(t, ls[i].b);
    dt_free(h);
    h = dt_tanh(u);
    dt_free(u);
    dt_free(t);
  }
  return h;
}

int main(void) {
  layer net[DEPTH];
  dt_device dev = dt_sim(0);
  layers_init(net, DEPTH, dev);
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, WIDTH});
  dt_tensor *y = layers_forward(net, DEPTH, x);
  int64_t n_params = 0;
  for (const layer *l = net; l < net + DEPTH; l++) n_params += dt_numel(l->w) + dt_numel(l->b);
  printf("%lld parameters, output %lld\n", (long long)n_params, (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  for (int i = 0; i < DEPTH; i++) {
    dt_free(net[i].w);
    dt_free(net[i].b);
  }
  return 0;
}
