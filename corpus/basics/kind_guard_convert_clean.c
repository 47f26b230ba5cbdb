// provenance: blind round field4
// Targets may arrive as int (class ids) or float; a converter checks dt_kind_of and casts
// through the host. The loss then always sees floats.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *as_float(dt_tensor *t) {
  if (dt_kind_of(t) == DT_FLOAT) return t;
  int64_t buf[8];
  float f[8];
  int64_t n = dt_numel(t);
  dt_read_ints(t, buf, 8);
  for (int64_t i = 0; i < n; i++) f[i] = (float)buf[i];
  dt_tensor *r = dt_from_floats(dt_device_of(t), f, 1, (const int64_t[]){n});
  dt_free(t);
  return r;
}

static float loss_of(const dt_tensor *pred, dt_tensor *target) {
  dt_tensor *t = as_float(target);
  dt_tensor *l = dt_mse_loss(pred, t);
  float v = 0;
  dt_read_floats(l, &v, 1);
  dt_free(t); dt_free(l);
  return v;
}

int main(void) {
  dt_device d = dt_sim(0);
  dt_tensor *pred = dt_randn(d, 1, 1, (const int64_t[]){4});
  const int64_t ids[4] = {0, 1, 1, 0};
  printf("%.3f\n", (double)loss_of(pred, dt_from_ints(d, ids, 1, (const int64_t[]){4})));
  printf("%.3f\n", (double)loss_of(pred, dt_ones(d, DT_FLOAT, 1, (const int64_t[]){4})));
  return 0;
}
