// provenance: blind round field4
// Per-task kind table (static const), indexed by a task fixed at compile time: the "logistic"
// task has int targets, and its loss is dt_mse_loss against float predictions.
#include <dt/dt.h>
#include <stdio.h>

enum { T_REG, T_LOGISTIC, T_COUNT };
static const dt_kind TARGET_KIND[T_COUNT] = { DT_FLOAT, DT_INT };
static const char *const NAMES[T_COUNT] = { "reg", "logistic" };

static float run_task(int task) {
  dt_device d = dt_cpu();
  dt_tensor *x = dt_randn(d, 5, 2, (const int64_t[]){4, 2});
  dt_tensor *w = dt_randn(d, 6, 2, (const int64_t[]){2, 1});
  dt_tensor *t = dt_zeros(d, TARGET_KIND[task], 2, (const int64_t[]){4, 1});
  dt_tensor *p = dt_sigmoid(dt_matmul(x, w));
  dt_tensor *l = dt_mse_loss(p, t); // expect-error: kind-mismatch
  float v = 0;
  dt_read_floats(l, &v, 1);
  return v;
}

int main(void) {
  for (int k = 0; k < T_COUNT; k++)
    printf("%s %.3f\n", NAMES[k], (double)run_task(k));
  return 0;
}
