// provenance: blind round field2
// Data-parallel replicas: arrays of per-device weights and batches, combined index by index,
// then gathered to the host for averaging.
#include <dt/dt.h>
#include <stdio.h>
#define NREP 2
typedef struct { dt_device dev; dt_tensor *w; dt_tensor *x; } replica;
int main(void) {
  replica r[NREP];
  for (int i = 0; i < NREP; i++) {
    r[i].dev = dt_sim(i);
    r[i].w = dt_randn(r[i].dev, 1, 2, (const int64_t[]){3, 1});
    r[i].x = dt_ones(r[i].dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  }
  dt_tensor *acc = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 1});
  for (int i = 0; i < NREP; i++) {
    dt_tensor *p = dt_matmul(r[i].x, r[i].w);
    dt_tensor *ph = dt_to_device(p, dt_cpu());
    dt_tensor *na = dt_add(acc, ph);
    dt_free(acc); acc = na; dt_free(p); dt_free(ph);
  }
  float v[4]; dt_read_floats(acc, v, 4);
  printf("%f\n", v[0]);
  return 0;
}
