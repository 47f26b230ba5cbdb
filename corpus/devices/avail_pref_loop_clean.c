// provenance: blind round field4
// Device preference list walked in a loop: first available backend wins (cuda, sim, cpu).
// --unavailable cuda: the loop skips cuda, no allocation happens on it.
// tagcheck-args: --unavailable cuda
// run-if: !cuda
#include <dt/dt.h>
#include <stdio.h>

static const dt_backend PREF[] = { DT_BACKEND_CUDA, DT_BACKEND_SIM, DT_BACKEND_CPU };
static dt_device make(dt_backend b) {
  switch (b) {
  case DT_BACKEND_CUDA: return dt_cuda(0);
  case DT_BACKEND_SIM: return dt_sim(0);
  case DT_BACKEND_CPU: break;
  }
  return dt_cpu();
}
static dt_device first_available(void) {
  for (size_t i = 0; i < sizeof PREF / sizeof PREF[0]; i++)
    if (dt_backend_available(PREF[i])) return make(PREF[i]);
  return dt_cpu();
}
int main(void) {
  dt_device d = first_available();
  dt_tensor *a = dt_ones(d, DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *b = dt_full(d, 2.0f, 1, (const int64_t[]){4});
  dt_tensor *c = dt_add(a, b);
  float out[4];
  dt_read_floats(c, out, 4);
  printf("%.1f\n", (double)out[0]);
  return 0;
}
