// provenance: blind round field4
// Task type chosen on the command line: regression keeps float targets, classification builds
// int targets and then still feeds them to dt_mse_loss. Default run: regression (clean).
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

typedef enum { TASK_REGRESSION, TASK_CLASSIFY } task_kind;
typedef struct { task_kind task; dt_kind target_kind; dt_device dev; } config;

static config parse(int argc, char **argv) {
  config c = { TASK_REGRESSION, DT_FLOAT, dt_sim(0) };
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--classify") == 0) c.task = TASK_CLASSIFY;
  switch (c.task) {
  case TASK_CLASSIFY: c.target_kind = DT_INT; break;
  case TASK_REGRESSION: c.target_kind = DT_FLOAT; break;
  }
  return c;
}

static dt_tensor *targets(const config *c) {
  return dt_ones(c->dev, c->target_kind, 2, (const int64_t[]){4, 1});
}

int main(int argc, char **argv) {
  config c = parse(argc, argv);
  dt_tensor *w = dt_randn(c.dev, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *x = dt_randn(c.dev, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *t = targets(&c);
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *l = dt_mse_loss(y, t); // expect-warning: kind-mismatch
  float v = 0;
  dt_read_floats(l, &v, 1);
  printf("%.3f\n", (double)v);
  return 0;
}
