// corpus/interproc/nested_trainer_struct_clean.c — a trainer struct holding the model and the
// optimizer state by value, initialized with a designated initializer and then by init
// functions taking pointers to the nested members (&t.model, &t.opt). Clean.
#include <stdio.h>

#include <dt/dt.h>

typedef struct model {
  dt_tensor *w;
} model;

typedef struct sgd_state {
  dt_tensor *velocity; /* plain, on the inner device */
  float lr;
} sgd_state;

typedef struct trainer {
  dt_device dev;
  model model;
  sgd_state opt;
  int step;
} trainer;

static void model_init(model *m, dt_device dev) {
  m->w = dt_require_grad(dt_randn(dev, 1, 2, (const int64_t[]){2, 2}));
}

static void sgd_init(sgd_state *s, const model *m, float lr) {
  s->velocity = dt_zeros(dt_inner_device(dt_device_of(m->w)), DT_FLOAT, 2,
                         (const int64_t[]){2, 2});
  s->lr = lr;
}

static void trainer_step(trainer *t) {
  dt_tensor *x = dt_randn(t->dev, (uint64_t)t->step, 2, (const int64_t[]){3, 2});
  dt_tensor *y = dt_matmul(x, t->model.w);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  dt_tensor *g = dt_grad(t->model.w);
  dt_tensor *v = dt_mul_scalar(t->opt.velocity, 0.9f);
  dt_tensor *v2 = dt_add(v, g);
  dt_free(t->opt.velocity);
  t->opt.velocity = v2;
  dt_tensor *plain = dt_inner(t->model.w);
  dt_tensor *st = dt_mul_scalar(v2, t->opt.lr);
  dt_tensor *nx = dt_sub(plain, st);
  dt_tensor *fresh = dt_require_grad(dt_from_inner(t->dev, nx));
  dt_free(t->model.w);
  t->model.w = fresh;
  dt_tensor *tmp[] = {nx, st, plain, v, g, l, y, x};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  t->step++;
}

int main(void) {
  trainer t = {.dev = dt_autodiff(dt_sim(0)), .step = 0};
  model_init(&t.model, t.dev);
  sgd_init(&t.opt, &t.model, 0.05f);
  for (int i = 0; i < 3; i++) trainer_step(&t);
  printf("steps: %d\n", t.step);
  dt_free(t.opt.velocity);
  dt_free(t.model.w);
  return 0;
}
