// provenance: blind round field3
// A producer/consumer batch queue as a malloc'd singly linked list. The producer enqueues
// plain batches on sim:1; the consumer trains an autodiff<sim:1> model on them.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct qnode { dt_tensor *x; struct qnode *next; } qnode;
typedef struct { qnode *head, *tail; } queue;
static void enqueue(queue *q, dt_tensor *x) {
  qnode *n = malloc(sizeof *n);
  n->x = x; n->next = NULL;
  if (q->tail) q->tail->next = n; else q->head = n;
  q->tail = n;
}
static dt_tensor *dequeue(queue *q) {
  qnode *n = q->head;
  if (!n) return NULL;
  q->head = n->next;
  if (!q->head) q->tail = NULL;
  dt_tensor *x = n->x;
  free(n);
  return x;
}
int main(void) {
  queue q = {NULL, NULL};
  for (int i = 0; i < 3; i++) enqueue(&q, dt_randn(dt_sim(1), (uint64_t)i, 2, (const int64_t[]){2, 3}));
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 5, 2, (const int64_t[]){3, 1}));
  dt_tensor *x;
  while ((x = dequeue(&q)) != NULL) {
    dt_tensor *p = dt_matmul(x, w); // expect-error: autodiff-expected
    dt_tensor *l = dt_mean(p);
    dt_backward(l);
    dt_free(p); dt_free(l); dt_free(x);
  }
  printf("done\n");
  return 0;
}
