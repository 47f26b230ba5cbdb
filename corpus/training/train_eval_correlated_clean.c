// provenance: blind round field2
// The model is autodiff only in training mode; backward and grads only run in training mode.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { int training; dt_device dev; dt_tensor *w; } model;
static void model_init(model *m, int training, dt_device base) {
  m->training = training;
  m->dev = training ? dt_autodiff(base) : base;
  m->w = dt_randn(m->dev, 1, 2, (const int64_t[]){3, 1});
  if (training) m->w = dt_require_grad(m->w);
}
static float step(model *m) {
  dt_tensor *x = dt_ones(m->dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dt_zeros(m->dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *p = dt_matmul(x, m->w);
  dt_tensor *l = dt_mse_loss(p, y);
  if (m->training) {
    dt_backward(l);
    dt_tensor *g = dt_grad(m->w);
    dt_free(g);
  }
  float v; dt_read_floats(l, &v, 1);
  dt_free(x); dt_free(y); dt_free(p); dt_free(l);
  return v;
}
int main(int argc, char **argv) {
  (void)argv;
  model m;
  model_init(&m, argc > 1, dt_sim(0));
  printf("%f\n", step(&m));
  return 0;
}
