// provenance: blind round field2
// Model allocated through a model** out-param; the head is created on the trainer's eval device.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct { dt_tensor *body, *head; } model;
typedef struct { dt_device train_dev, eval_dev; model *m; } trainer;
static int model_new(model **out, dt_device body_dev, dt_device head_dev) {
  model *m = malloc(sizeof *m);
  if (!m) return -1;
  m->body = dt_randn(body_dev, 1, 2, (const int64_t[]){4, 4});
  m->head = dt_randn(head_dev, 2, 2, (const int64_t[]){4, 1});
  *out = m;
  return 0;
}
static dt_tensor *forward(const trainer *t, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, t->m->body);
  return dt_matmul(h, t->m->head); // expect-error: device-mismatch
}
int main(void) {
  trainer t = { dt_sim(0), dt_sim(1), NULL };
  if (model_new(&t.m, t.train_dev, t.eval_dev)) return 1;
  dt_tensor *x = dt_ones(t.train_dev, DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *y = forward(&t, x);
  printf("%p\n", (void *)y);
  return 0;
}
