// corpus/interproc/struct_by_value_clean.c — models passed and copied by value: an evaluation
// copy of the parameter struct (`mlp eval = train;` then its fields replaced by host copies),
// a helper taking the struct by value, and a struct returned from a factory. Clean: each copy
// keeps or replaces its fields consistently.
#include <stdio.h>

#include <dt/dt.h>

typedef struct mlp {
  dt_device dev;
  dt_tensor *w, *b;
} mlp;

static mlp mlp_make(dt_device dev) {
  mlp m = {dev, dt_randn(dev, 1, 2, (const int64_t[]){4, 2}),
           dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){2})};
  return m;
}

static dt_tensor *mlp_apply(mlp m, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, m.w);
  dt_tensor *y = dt_add(t, m.b);
  dt_free(t);
  return y;
}

int main(void) {
  mlp train = mlp_make(dt_sim(1));
  dt_tensor *x = dt_randn(train.dev, 2, 2, (const int64_t[]){3, 4});
  dt_tensor *y = mlp_apply(train, x);

  mlp eval = train;
  eval.dev = dt_cpu();
  eval.w = dt_to_device(train.w, eval.dev);
  eval.b = dt_to_device(train.b, eval.dev);
  dt_tensor *hx = dt_to_device(x, eval.dev);
  dt_tensor *hy = mlp_apply(eval, hx);
  dt_tensor *back = dt_to_device(y, eval.dev);
  dt_tensor *diff = dt_sub(hy, back);
  float d[6];
  dt_read_floats(diff, d, 6);
  printf("max host/device difference at [0]: %f\n", (double)d[0]);

  dt_tensor *all[] = {diff, back, hy, hx, eval.w, eval.b, y, x, train.w, train.b};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
