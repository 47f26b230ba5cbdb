// provenance: blind round field3
// Data-parallel evaluation over two replicas (sim:0, sim:1); outputs are gathered with dt_cat
// without moving them to one device first.
#include <dt/dt.h>
#include <stdio.h>
#define NR 2
typedef struct { dt_device dev; dt_tensor *w; } replica;
static dt_tensor *run_shard(const replica *r, uint64_t seed) {
  dt_tensor *x = dt_randn(r->dev, seed, 2, (const int64_t[]){3, 4});
  dt_tensor *y = dt_matmul(x, r->w);
  dt_free(x);
  return y;
}
int main(void) {
  replica rep[NR];
  dt_tensor *master = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){4, 2});
  for (int r = 0; r < NR; r++) {
    rep[r].dev = dt_sim(r);
    rep[r].w = dt_to_device(master, rep[r].dev);
  }
  dt_tensor *outs[NR];
  for (int r = 0; r < NR; r++) outs[r] = run_shard(&rep[r], (uint64_t)r + 10);
  dt_tensor *all = dt_cat(NR, outs, 0); // expect-error: device-mismatch
  printf("%p\n", (void *)all);
  return 0;
}
