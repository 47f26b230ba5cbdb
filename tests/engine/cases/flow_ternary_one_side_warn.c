// Only the accelerator side of a run-time choice mismatches: a warning.
#include <dt/dt.h>
int main(int argc, char **argv) {
  (void)argv;
  dt_device dev = argc > 2 ? dt_sim(0) : dt_cpu();
  dt_tensor *a = dt_randn(dev, 1, 1, (const int64_t[]){3});
  dt_tensor *b = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor *c = dt_mul(a, b); // expect-warning: backend-mismatch
  dt_free(c);
  return 0;
}
