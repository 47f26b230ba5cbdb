// Globals and statics: a device kept in a config struct, a lazily created cache, and a
// training step (nobody calls it: a root) that mixes the cached tensor with a host batch. In
// that root the cache may already hold a tensor made elsewhere (unknown): a warning.
#include <stdio.h>
#include <dt/dt.h>
typedef struct config { dt_device dev; int epochs; } config;
static config g_cfg = {{DT_BACKEND_SIM, 1, 0}, 3};
static dt_tensor *g_w;
static dt_tensor *cache(void) {
  static dt_tensor *c = NULL;
  if (!c) c = dt_zeros(g_cfg.dev, DT_FLOAT, 1, (const int64_t[]){4});
  return c;
}
void setup(void) { g_w = dt_ones(g_cfg.dev, DT_FLOAT, 1, (const int64_t[]){4}); }
void step(void) {
  dt_tensor *batch = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *y = dt_add(batch, cache()); // expect-warning: backend-mismatch
  dt_free(y);
  dt_free(batch);
}
int main(void) {
  setup();
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){4});
  for (int e = 0; e < g_cfg.epochs; e++) {
    dt_tensor *y = dt_add(x, g_w);
    dt_tensor *z = dt_add(y, cache());
    dt_free(y);
    dt_free(z);
  }
  printf("done\n");
  return 0;
}
