// provenance: blind round field3
// Double buffering over two devices: slot k of the input buffers and of the weights live on
// sim:k; each step uses slot step % 2 of both, so they always agree.
#include <dt/dt.h>
#include <stdio.h>
int main(void) {
  dt_tensor *in[2], *w[2];
  for (int k = 0; k < 2; k++) {
    in[k] = dt_randn(dt_sim(k), (uint64_t)k, 2, (const int64_t[]){2, 3});
    w[k] = dt_randn(dt_sim(k), (uint64_t)k + 7, 2, (const int64_t[]){3, 3});
  }
  float acc = 0;
  for (int step = 0; step < 4; step++) {
    int k = step % 2;
    dt_tensor *y = dt_matmul(in[k], w[k]);
    dt_tensor *m = dt_mean(y);
    float v; dt_read_floats(m, &v, 1);
    acc += v;
    dt_free(y); dt_free(m);
  }
  printf("%f\n", acc);
  return 0;
}
