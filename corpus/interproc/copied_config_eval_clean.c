// provenance: blind round field2
// Eval on a copied config with cpu: weights moved with dt_to_device before use.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; int batch; } cfg_t;
typedef struct { dt_tensor *w; } model;
static dt_tensor *predict(const model *m, const cfg_t *c) {
  dt_tensor *x = dt_ones(c->dev, DT_FLOAT, 2, (const int64_t[]){c->batch, 3});
  return dt_matmul(x, m->w);
}
static model model_to(const model *m, dt_device d) {
  model r = { dt_to_device(m->w, d) };
  return r;
}
int main(void) {
  cfg_t train = { dt_sim(0), 4 };
  model m = { dt_randn(train.dev, 1, 2, (const int64_t[]){3, 1}) };
  dt_tensor *p0 = predict(&m, &train);
  cfg_t eval = train;
  eval.dev = dt_cpu();
  model em = model_to(&m, eval.dev);
  dt_tensor *p1 = predict(&em, &eval);
  float a[4], b[4];
  dt_read_floats(p0, a, 4); dt_read_floats(p1, b, 4);
  printf("%f %f\n", a[0], b[0]);
  return 0;
}
