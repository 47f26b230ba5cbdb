// corpus/devices/cuda_unconditional_bug.c — a training script written on a GPU workstation:
// it allocates on cuda:0 unconditionally. Checked with `--unavailable cuda` (the CI machines
// have no GPU), the first allocation on cuda is reported (backend-unavailable); the later
// calls use the failed result, so they yield no further finding.
// tagcheck-args: --unavailable cuda
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device gpu = dt_cuda(0);
  dt_tensor *w = dt_randn(gpu, 1, 2, (const int64_t[]){32, 32}); // expect-error: backend-unavailable
  dt_tensor *w2 = dt_mul(w, w);
  dt_tensor *s = dt_sum(w2);
  float v = 0;
  dt_read_floats(s, &v, 1);
  printf("%f\n", (double)v);
  return 0;
}
