// Tensors kept in a linked list built by a loop (one heap allocation site, many nodes) and
// summed by walking it; the weights follow a run-time device choice: a warning.
#include <stdlib.h>
#include <dt/dt.h>
typedef struct node { dt_tensor *t; struct node *next; } node;
int main(int argc, char **argv) {
  (void)argv;
  dt_device dev = argc > 1 ? dt_sim(1) : dt_cpu();
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){4, 4});
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
    x = y;
  }
  dt_tensor *h = dt_matmul(x, w); // expect-warning: backend-mismatch
  (void)h;
  return 0;
}
