// provenance: blind round field3
// The config's device is updated through a pointer alias (a generic "set option" helper that
// receives the field's address); the model is then built from the config and meets host data.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; int epochs; } config;
static void set_device(dt_device *slot, dt_device d) { *slot = d; }
int main(void) {
  config cfg = {dt_cpu(), 2};
  dt_device *opt = &cfg.dev;
  set_device(opt, dt_sim(1));
  dt_tensor *w = dt_randn(cfg.dev, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_randn(dt_cpu(), 2, 2, (const int64_t[]){2, 3});
  for (int e = 0; e < cfg.epochs; e++) {
    dt_tensor *y = dt_matmul(x, w); // expect-error: backend-mismatch
    dt_free(y);
  }
  return 0;
}
