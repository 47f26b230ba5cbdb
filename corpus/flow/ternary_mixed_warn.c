// corpus/flow/ternary_mixed_warn.c — the data device follows the --accel flag but the
// weights were hard-coded on the host. Without the flag everything is on cpu; with it the
// batch is on sim:0. The mismatch depends on the flag: a warning. The oracle runs it with the
// flag, so the run-time check fails at the flagged line.
// run-args: --accel
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  int accel = argc > 1 && strcmp(argv[1], "--accel") == 0;
  dt_device data_dev = accel ? dt_sim(0) : dt_cpu();
  dt_tensor *w = dt_randn(dt_cpu(), 1, 2, (const int64_t[]){3, 2});
  dt_tensor *x = dt_randn(data_dev, 2, 2, (const int64_t[]){5, 3});
  dt_tensor *y = dt_matmul(x, w); // expect-warning: backend-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
