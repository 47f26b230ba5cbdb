// provenance: blind round field2
// Multi-head outputs concatenated; heads live in an array of structs, one on another sim.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *w; } head;
static void head_init(head *h, dt_device d, uint64_t seed) {
  h->dev = d;
  h->w = dt_randn(d, seed, 2, (const int64_t[]){4, 2});
}
int main(void) {
  head hs[3];
  head_init(&hs[0], dt_sim(0), 1);
  head_init(&hs[1], dt_sim(0), 2);
  head_init(&hs[2], dt_sim(1), 3);
  dt_tensor *outs[3];
  for (int i = 0; i < 3; i++) {
    dt_tensor *x = dt_ones(hs[i].dev, DT_FLOAT, 2, (const int64_t[]){5, 4});
    outs[i] = dt_matmul(x, hs[i].w);
  }
  dt_tensor *all = dt_cat(3, outs, 1); // expect-error: device-mismatch
  printf("%p\n", (void *)all);
  return 0;
}
