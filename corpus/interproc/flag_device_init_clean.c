// corpus/interproc/flag_device_init_clean.c — a model whose init function sets the training
// flag and the matching device together from its parameter: autodiff<cpu> when training, plain
// cpu otherwise. Every use tests the flag first, so backward and grad only ever see autodiff
// tensors: clean. (The flag is copied into the struct before the branch that picks the device;
// the branch must refine the copy too, or the flag and the device lose their correlation.)
#include <stdio.h>

#include <dt/dt.h>

typedef struct model {
  int training;
  dt_device dev;
  dt_tensor *w;
} model;

static void model_init(model *m, int training) {
  m->training = training;
  m->dev = training ? dt_autodiff(dt_cpu()) : dt_cpu();
  m->w = dt_full(m->dev, 0.5f, 1, (const int64_t[]){3});
  if (m->training) dt_require_grad(m->w);
}

int main(int argc, char **argv) {
  (void)argv;
  model m;
  model_init(&m, argc > 1);
  dt_tensor *loss = dt_sum(dt_mul(m.w, m.w));
  if (m.training) {
    dt_backward(loss);
    dt_tensor *g = dt_grad(m.w);
    float v[3] = {0};
    if (g) dt_read_floats(g, v, 3);
    printf("grad %.2f\n", (double)v[0]);
    dt_free(g);
  }
  dt_free(loss);
  dt_free(m.w);
  return 0;
}
