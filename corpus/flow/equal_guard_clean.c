// provenance: blind round field2
// Tensors moved only when not already on the target; every op sees the target device.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; } ctx;
static dt_tensor *ensure_on(const ctx *c, dt_tensor *t) {
  if (!dt_device_equal(dt_device_of(t), c->dev)) {
    dt_tensor *m = dt_to_device(t, c->dev);
    dt_free(t);
    return m;
  }
  return t;
}
int main(int argc, char **argv) {
  (void)argv;
  ctx c = { argc > 1 ? dt_sim(1) : dt_sim(0) };
  dt_tensor *a = ensure_on(&c, dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4}));
  dt_tensor *b = ensure_on(&c, dt_full(dt_sim(0), 2.0f, 1, (const int64_t[]){4}));
  dt_tensor *s = dt_mul(a, b);
  dt_tensor *t = dt_sum(s);
  float v;
  dt_read_floats(t, &v, 1);
  printf("%f\n", v);
  return 0;
}
