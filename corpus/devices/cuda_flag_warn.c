// corpus/devices/cuda_flag_warn.c — `--cuda` on the command line selects cuda:0; otherwise the
// host. Checked with `--unavailable cuda`, the allocation fails only on the --cuda path: a
// warning (backend-unavailable). The oracle passes --cuda, so the run fails at that line.
// tagcheck-args: --unavailable cuda
// run-args: --cuda
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  int want_cuda = 0;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--cuda") == 0) want_cuda = 1;
  dt_device dev = want_cuda ? dt_cuda(0) : dt_cpu();
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 2}); // expect-warning: backend-unavailable
  dt_tensor *y = dt_add(x, x);
  float v[4];
  dt_read_floats(y, v, 4);
  printf("%f\n", (double)v[0]);
  dt_free(y);
  dt_free(x);
  return 0;
}
