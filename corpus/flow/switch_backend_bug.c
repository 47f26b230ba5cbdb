// provenance: blind round field2
// Scratch buffer allocated by switching on the input's backend, but always on sim:0.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *scratch_for(const dt_tensor *x) {
  dt_device d = dt_device_of(x);
  dt_tensor *s = NULL;
  switch (d.backend) {
  case DT_BACKEND_CPU: s = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4}); break;
  case DT_BACKEND_SIM: s = dt_zeros(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4}); break;
  case DT_BACKEND_CUDA:
  default: s = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){4}); break;
  }
  return s;
}
int main(void) {
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *s = scratch_for(x);
  dt_tensor *y = dt_add(x, s); // expect-error: device-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
