// provenance: blind round field3
// The label kind comes from a task config (classification uses int labels); the regression
// head is wired to the classification config by mistake and feeds the labels to mse.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { const char *name; dt_kind label_kind; int classes; } task_cfg;
static const task_cfg CLASSIFY = {"classify", DT_INT, 3};
static const task_cfg REGRESS = {"regress", DT_FLOAT, 1};
static dt_tensor *make_labels(const task_cfg *t, dt_device d, int n) {
  return dt_zeros(d, t->label_kind, 2, (const int64_t[]){n, 1});
}
int main(void) {
  const task_cfg *task = &CLASSIFY;
  dt_device d = dt_cpu();
  dt_tensor *x = dt_randn(d, 1, 2, (const int64_t[]){4, 2});
  dt_tensor *w = dt_randn(d, 2, 2, (const int64_t[]){2, 1});
  dt_tensor *pred = dt_matmul(x, w);
  dt_tensor *y = make_labels(task, d, 4);
  dt_tensor *l = dt_mse_loss(pred, y); // expect-error: kind-mismatch
  printf("%s %s %p\n", task->name, REGRESS.name, (void *)l);
  return 0;
}
