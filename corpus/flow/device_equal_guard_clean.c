// provenance: blind round field4
// "Move if needed" helpers guarded by dt_device_equal / tag fields of dt_device_of: the move
// happens exactly when the devices differ, so every operation sees matching operands.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *to_same(dt_tensor *x, const dt_tensor *like) {
  dt_device want = dt_device_of(like);
  if (dt_device_equal(dt_device_of(x), want)) return x;
  dt_tensor *m = dt_to_device(x, want);
  dt_free(x);
  return m;
}

static dt_tensor *host_copy(dt_tensor *x) {
  if (dt_device_of(x).backend == DT_BACKEND_CPU) return x;
  dt_tensor *h = dt_to_device(x, dt_cpu());
  dt_free(x);
  return h;
}

static dt_tensor *plain(dt_tensor *x) {
  if (!dt_device_of(x).autodiff) return x;
  dt_tensor *p = dt_inner(x);
  dt_free(x);
  return p;
}

int main(void) {
  dt_tensor *w = dt_randn(dt_sim(1), 1, 1, (const int64_t[]){4});
  dt_tensor *x = dt_randn(dt_sim(0), 2, 1, (const int64_t[]){4});
  x = to_same(x, w);
  dt_tensor *y = dt_add(x, w);
  dt_tensor *z = dt_randn(dt_sim(1), 3, 1, (const int64_t[]){4});
  z = to_same(z, w);
  dt_tensor *y2 = dt_add(y, z);
  dt_tensor *hy = host_copy(y2);
  dt_tensor *b = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *o = dt_add(hy, b);
  dt_tensor *t = dt_ones(dt_autodiff(dt_cpu()), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *tp = plain(t);
  dt_tensor *o2 = dt_add(o, tp);
  float out[4];
  dt_read_floats(o2, out, 4);
  printf("%.3f\n", (double)out[0]);
  return 0;
}
