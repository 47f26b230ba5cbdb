// provenance: blind round field2
// Eval config is a copy of the train config with the device switched to cpu; weights never moved.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; int batch; float lr; } cfg_t;
typedef struct { dt_tensor *w; } model;
static dt_tensor *predict(const model *m, const cfg_t *c) {
  dt_tensor *x = dt_ones(c->dev, DT_FLOAT, 2, (const int64_t[]){c->batch, 3});
  return dt_matmul(x, m->w); // expect-error: backend-mismatch
}
int main(void) {
  cfg_t train = { dt_sim(0), 4, 0.1f };
  model m = { dt_randn(train.dev, 1, 2, (const int64_t[]){3, 1}) };
  dt_tensor *p0 = predict(&m, &train);
  cfg_t eval = train;
  eval.dev = dt_cpu();
  eval.batch = 1;
  dt_tensor *p1 = predict(&m, &eval);
  printf("%p %p\n", (void *)p0, (void *)p1);
  return 0;
}
