// provenance: blind round field2
// Layers in a linked list on sim:0; the input batch stays on the host.
#include <dt/dt.h>
#include <stdlib.h>
#include <stdio.h>
typedef struct node { dt_tensor *w; struct node *next; } node;
static node *push(node *head, dt_device d, int n, uint64_t seed) {
  node *k = malloc(sizeof *k);
  k->w = dt_randn(d, seed, 2, (const int64_t[]){n, n});
  k->next = head;
  return k;
}
static dt_tensor *forward(const node *head, dt_tensor *x) {
  dt_tensor *h = x;
  for (const node *k = head; k; k = k->next) {
    dt_tensor *z = dt_matmul(h, k->w); // expect-error: backend-mismatch
    h = dt_relu(z);
  }
  return h;
}
int main(void) {
  node *net = NULL;
  dt_device d = dt_sim(0);
  for (int i = 0; i < 3; i++) net = push(net, d, 4, (uint64_t)i);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *y = forward(net, x);
  printf("%p\n", (void *)y);
  return 0;
}
