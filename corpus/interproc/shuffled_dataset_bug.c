// provenance: blind round field3
// A dataset of (x, y) samples in an array of structs, visited in a shuffled order; each
// sample is copied out by value. Targets were stored on the host.
#include <dt/dt.h>
#include <stdio.h>
#define N 4
typedef struct { dt_tensor *x, *y; } sample;
int main(void) {
  dt_device dev = dt_sim(0);
  sample data[N];
  for (int i = 0; i < N; i++) {
    data[i].x = dt_randn(dev, (uint64_t)i, 2, (const int64_t[]){1, 3});
    data[i].y = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 1});
  }
  int order[N] = {2, 0, 3, 1};
  dt_tensor *w = dt_randn(dev, 7, 2, (const int64_t[]){3, 1});
  float total = 0;
  for (int k = 0; k < N; k++) {
    sample s = data[order[k]];
    dt_tensor *p = dt_matmul(s.x, w);
    dt_tensor *l = dt_mse_loss(p, s.y); // expect-error: backend-mismatch
    float v; dt_read_floats(l, &v, 1);
    total += v;
    dt_free(p); dt_free(l);
  }
  printf("%f\n", total);
  return 0;
}
