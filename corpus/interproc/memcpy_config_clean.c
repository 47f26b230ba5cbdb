// provenance: blind round field3
// The run config is copied with memcpy into a worker's private copy; the analyzer may not
// follow memcpy, but it must not invent a device for the copy. Everything runs on sim:1.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
typedef struct { dt_device dev; float lr; } run_cfg;
static float worker(const run_cfg *shared, const dt_tensor *w) {
  run_cfg mine;
  memcpy(&mine, shared, sizeof mine);
  dt_tensor *x = dt_randn(mine.dev, 3, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *m = dt_mean(y);
  float v; dt_read_floats(m, &v, 1);
  dt_free(x); dt_free(y); dt_free(m);
  return v * mine.lr;
}
int main(void) {
  run_cfg cfg = {dt_sim(1), 0.1f};
  dt_tensor *w = dt_randn(cfg.dev, 1, 2, (const int64_t[]){3, 2});
  printf("%f\n", worker(&cfg, w));
  return 0;
}
