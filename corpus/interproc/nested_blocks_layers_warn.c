// provenance: blind round field4
// Blocks of layers, block b on sim:b, filled by nested loops. The forward runs the blocks in
// order but forgets to move the activation between blocks: the first block is fine, the second
// fails (a later loop iteration, so a warning).
#include <dt/dt.h>
#include <stdio.h>

#define NB 2
#define NL 2
typedef struct { dt_tensor *w; } layer;
typedef struct { dt_device dev; layer l[NL]; } block;
typedef struct { block b[NB]; } net;

static void net_init(net *n) {
  for (int b = 0; b < NB; b++) {
    n->b[b].dev = dt_sim(b);
    for (int l = 0; l < NL; l++)
      n->b[b].l[l].w = dt_randn(n->b[b].dev, (uint64_t)(b * NL + l), 2, (const int64_t[]){3, 3});
  }
}

static dt_tensor *net_fwd(const net *n, dt_tensor *x) {
  for (int b = 0; b < NB; b++)
    for (int l = 0; l < NL; l++) {
      dt_tensor *h = dt_matmul(x, n->b[b].l[l].w); // expect-warning: device-mismatch
      dt_free(x);
      x = h;
    }
  return x;
}

int main(void) {
  net n;
  net_init(&n);
  dt_tensor *y = net_fwd(&n, dt_randn(dt_sim(0), 7, 2, (const int64_t[]){2, 3}));
  printf("%p\n", (void *)y);
  return 0;
}
