// provenance: blind round field3
// A positional-encoding table cached in a function-local static, built on the device of the
// first input it sees. Training runs on sim:0, evaluation later on sim:1: the cached table
// is on the wrong device for the evaluation call.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *add_posenc(const dt_tensor *x) {
  static dt_tensor *pe = NULL;
  if (!pe) pe = dt_randn(dt_device_of(x), 42, 2, (const int64_t[]){4, 8});
  return dt_add(x, pe); // expect-error: device-mismatch
}
static float run(dt_device d, uint64_t seed) {
  dt_tensor *x = dt_randn(d, seed, 2, (const int64_t[]){4, 8});
  dt_tensor *h = add_posenc(x);
  dt_tensor *m = dt_mean(h);
  float v; dt_read_floats(m, &v, 1);
  dt_free(x); dt_free(h); dt_free(m);
  return v;
}
int main(void) {
  float tr = run(dt_sim(0), 1);
  float ev = run(dt_sim(1), 2);
  printf("%f %f\n", tr, ev);
  return 0;
}
