// provenance: blind round field3
// Model-parallel split point from a config struct; this build sets split = 0 (no split), so
// every layer and the unmoved input stay on sim:0. The other arm is dead for this config.
#include <dt/dt.h>
#include <stdio.h>
#define NL 3
typedef struct { int split; int hidden; } par_cfg;
static dt_device layer_dev(const par_cfg *c, int i) {
  return (c->split > 0 && i >= c->split) ? dt_sim(1) : dt_sim(0);
}
int main(void) {
  const par_cfg cfg = {0, 4};
  dt_tensor *w[NL];
  for (int i = 0; i < NL; i++) w[i] = dt_randn(layer_dev(&cfg, i), (uint64_t)i, 2, (const int64_t[]){cfg.hidden, cfg.hidden});
  dt_tensor *h = dt_randn(dt_sim(0), 9, 2, (const int64_t[]){1, cfg.hidden});
  for (int i = 0; i < NL; i++) {
    dt_tensor *n = dt_matmul(h, w[i]);
    dt_free(h);
    h = n;
  }
  printf("%lld\n", (long long)dt_numel(h));
  return 0;
}
