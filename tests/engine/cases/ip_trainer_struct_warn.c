// A trainer struct: parameters appended to a realloc'd array by a helper, an activation held
// as a function pointer, a helper that moves a tensor only when needed, a linked list of host
// tensors. The output is compared with a host tensor without moving it back: a warning (only
// the accelerator path fails).
#include <stdlib.h>
#include <string.h>
#include <dt/dt.h>
typedef struct node { dt_tensor *t; struct node *next; } node;
typedef struct trainer {
  dt_device dev;
  dt_tensor *(*act)(const dt_tensor *);
  dt_tensor **params;
  int n_params, cap;
} trainer;
static dt_tensor *ensure_on(dt_tensor *t, dt_device d) {
  if (dt_device_equal(dt_device_of(t), d)) return t;
  dt_tensor *m = dt_to_device(t, d);
  dt_free(t);
  return m;
}
static void add_param(trainer *tr, dt_tensor *p) {
  if (tr->n_params == tr->cap) {
    tr->cap = tr->cap ? tr->cap * 2 : 4;
    tr->params = realloc(tr->params, (size_t)tr->cap * sizeof *tr->params);
  }
  tr->params[tr->n_params++] = p;
}
int main(int argc, char **argv) {
  trainer tr;
  memset(&tr, 0, sizeof tr);
  tr.dev = argc > 1 && strcmp(argv[1], "sim") == 0 ? dt_sim(1) : dt_cpu();
  tr.act = dt_relu;
  for (int i = 0; i < 3; i++) add_param(&tr, dt_randn(tr.dev, (uint64_t)i, 2, (const int64_t[]){4, 4}));
  node *head = NULL;
  for (int i = 0; i < 5; i++) {
    node *n = malloc(sizeof *n);
    n->t = dt_randn(dt_cpu(), (uint64_t)i, 2, (const int64_t[]){4, 4});
    n->next = head;
    head = n;
  }
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 4});
  for (node *n = head; n; n = n->next) {
    dt_tensor *y = dt_add(x, n->t);
    dt_free(x);
    x = y;
  }
  x = ensure_on(x, tr.dev);
  for (int i = 0; i < tr.n_params; i++) {
    dt_tensor *h = dt_matmul(x, tr.params[i]);
    dt_tensor *a = tr.act(h);
    dt_free(h);
    dt_free(x);
    x = a;
  }
  dt_tensor *host = dt_to_device(x, dt_cpu());
  dt_tensor *z = dt_add(x, head->t); // expect-warning: backend-mismatch
  dt_free(z);
  return 0;
}
