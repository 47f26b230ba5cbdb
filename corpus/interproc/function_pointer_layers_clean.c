// corpus/interproc/function_pointer_layers_clean.c — a "layer" interface in C: structs with a
// forward function pointer and an opaque state, run in sequence by a generic loop (the shape of
// many C inference engines). Every tensor the layers see comes through the pointer calls, so
// their tags are unknown to the analyzer; no finding may come of it. Clean at run time too.
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

typedef struct layer layer;
struct layer {
  dt_tensor *(*forward)(layer *self, const dt_tensor *x);
  void (*destroy)(layer *self);
  dt_tensor *w;
};

static dt_tensor *dense_forward(layer *self, const dt_tensor *x) { return dt_matmul(x, self->w); }
static dt_tensor *act_forward(layer *self, const dt_tensor *x) {
  (void)self;
  return dt_tanh(x);
}
static void dense_destroy(layer *self) { dt_free(self->w); }
static void act_destroy(layer *self) { (void)self; }

static layer make_dense(dt_device dev, int in, int out, uint64_t seed) {
  layer l = {dense_forward, dense_destroy, dt_randn(dev, seed, 2, (const int64_t[]){in, out})};
  return l;
}
static layer make_act(void) {
  layer l = {act_forward, act_destroy, NULL};
  return l;
}

int main(void) {
  dt_device dev = dt_cpu();
  layer net[4] = {make_dense(dev, 4, 8, 1), make_act(), make_dense(dev, 8, 2, 2), make_act()};
  dt_tensor *x = dt_randn(dev, 3, 2, (const int64_t[]){5, 4});
  for (int i = 0; i < 4; i++) {
    dt_tensor *y = net[i].forward(&net[i], x);
    dt_free(x);
    x = y;
  }
  dt_tensor *bias = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *out = dt_add(x, bias);
  printf("out %lld\n", (long long)dt_numel(out));
  dt_free(out);
  dt_free(bias);
  dt_free(x);
  for (int i = 0; i < 4; i++) net[i].destroy(&net[i]);
  return EXIT_SUCCESS;
}
