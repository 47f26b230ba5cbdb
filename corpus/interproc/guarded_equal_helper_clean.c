// provenance: blind round field2
// Same as a guard, spelled with dt_device_equal and an early return of the first operand.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *residual(const dt_tensor *x, const dt_tensor *fx) {
  if (!dt_device_equal(dt_device_of(x), dt_device_of(fx))) {
    fprintf(stderr, "residual: devices differ, skipping\n");
    return dt_detach(x);
  }
  return dt_add(x, fx);
}
int main(void) {
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *f1 = dt_relu(x);
  dt_tensor *f2 = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *r1 = residual(x, f1);
  dt_tensor *r2 = residual(x, f2);
  float v[4]; dt_read_floats(r1, v, 4); dt_read_floats(r2, v, 4);
  printf("%f\n", v[0]);
  return 0;
}
