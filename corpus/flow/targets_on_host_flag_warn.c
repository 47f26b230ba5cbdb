// provenance: blind round field
// run-args: --sim
// The model device comes from a flag, but the targets are always created on the cpu.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  dt_device dev = dt_cpu();
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--sim") == 0) dev = dt_sim(0);
  dt_tensor *w = dt_full(dev, 0.5f, 2, (const int64_t[]){3, 1});
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *target = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *l = dt_mse_loss(p, target); // expect-warning: backend-mismatch
  float v;
  dt_read_floats(l, &v, 1);
  printf("loss %.3f\n", v);
  return 0;
}
