// provenance: blind round field3
// Device written through a pointer to the config field; the data follows cfg.dev so all agree.
// A stale local copy of the old device is only used for host-side logging tensors.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; int epochs; } config;
static void set_device(dt_device *slot, dt_device d) { *slot = d; }
int main(void) {
  config cfg = {dt_cpu(), 2};
  dt_device log_dev = cfg.dev;
  dt_device *opt = &cfg.dev;
  set_device(opt, dt_sim(1));
  dt_tensor *w = dt_randn(cfg.dev, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_randn(cfg.dev, 2, 2, (const int64_t[]){2, 3});
  dt_tensor *hist = dt_zeros(log_dev, DT_FLOAT, 1, (const int64_t[]){1});
  for (int e = 0; e < cfg.epochs; e++) {
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *m = dt_mean(y);
    dt_tensor *mh = dt_to_device(m, log_dev);
    dt_tensor *nh = dt_add(hist, mh);
    dt_free(hist); hist = nh;
    dt_free(y); dt_free(m); dt_free(mh);
  }
  float v; dt_read_floats(hist, &v, 1);
  printf("%f\n", v);
  return 0;
}
