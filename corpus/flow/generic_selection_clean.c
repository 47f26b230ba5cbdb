// corpus/flow/generic_selection_clean.c — C11 _Generic picks the device function from the type of
// a configuration struct; both tensors are made through the accelerator configuration, on
// sim:1: clean.
#include <stdio.h>

#include <dt/dt.h>

typedef struct host_cfg { int threads; } host_cfg;
typedef struct accel_cfg { int ordinal; } accel_cfg;

static dt_device host_dev(host_cfg c) { (void)c; return dt_cpu(); }
static dt_device accel_dev(accel_cfg c) { return dt_sim(c.ordinal); }

#define DEVICE_OF(cfg) _Generic((cfg), host_cfg: host_dev, accel_cfg: accel_dev)(cfg)

int main(void) {
  accel_cfg a = {1};
  host_cfg h = {4};
  dt_tensor *x = dt_ones(DEVICE_OF(a), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *w = dt_full(dt_sim(1), 2.0f, 1, (const int64_t[]){2});
  dt_tensor *y = dt_mul(x, w);
  dt_tensor *c = dt_ones(DEVICE_OF(h), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *z = dt_add(c, c);
  printf("%lld %lld\n", (long long)dt_numel(y), (long long)dt_numel(z));
  dt_free(z);
  dt_free(c);
  dt_free(y);
  dt_free(w);
  dt_free(x);
  return 0;
}
