// corpus/flow/available_ignored_warn.c — the program tests for cuda, prints a warning when it
// is missing, and then allocates on cuda:0 anyway. On the path where dt_backend_available
// returned false the allocation fails; on the other it does not: a warning
// (backend-unavailable). On a machine without a GPU the run fails at the flagged line.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  if (!dt_backend_available(DT_BACKEND_CUDA))
    fprintf(stderr, "warning: no CUDA device found, performance will suffer\n");
  dt_device gpu = dt_cuda(0);
  dt_tensor *w = dt_randn(gpu, 1, 2, (const int64_t[]){8, 8}); // expect-warning: backend-unavailable
  dt_tensor *s = dt_sum(w);
  float v = 0;
  dt_read_floats(s, &v, 1);
  printf("sum %f\n", (double)v);
  dt_free(s);
  dt_free(w);
  return 0;
}
