// provenance: blind round field3
// Two replicas; outputs gathered onto the host (through an array of structs) before dt_cat.
#include <dt/dt.h>
#include <stdio.h>
#define NR 2
typedef struct { dt_device dev; dt_tensor *w; dt_tensor *out; } replica;
int main(void) {
  replica rep[NR];
  dt_tensor *master = dt_randn(dt_cpu(), 1, 2, (const int64_t[]){4, 2});
  for (int r = 0; r < NR; r++) {
    rep[r].dev = dt_sim(NR - 1 - r);
    rep[r].w = dt_to_device(master, rep[r].dev);
    dt_tensor *x = dt_randn(rep[r].dev, (uint64_t)r, 2, (const int64_t[]){3, 4});
    rep[r].out = dt_matmul(x, rep[r].w);
    dt_free(x);
  }
  dt_tensor *host[NR];
  for (int r = 0; r < NR; r++) host[r] = dt_to_device(rep[r].out, dt_cpu());
  dt_tensor *all = dt_cat(NR, host, 0);
  dt_tensor *s = dt_sum(all);
  float v; dt_read_floats(s, &v, 1);
  printf("%f\n", v);
  return 0;
}
