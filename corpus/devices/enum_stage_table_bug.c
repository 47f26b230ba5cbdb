// provenance: blind round field5
// Pipeline stages placed by a static device table indexed by an enum, filled at start-up.
// The head stage consumes the embedding activations without moving them: device-mismatch.
#include <dt/dt.h>
#include <stdio.h>

enum stage { ST_EMBED, ST_BODY, ST_HEAD, ST_COUNT };
static dt_device g_stage_dev[ST_COUNT];
static dt_tensor *g_w[ST_COUNT];

static void setup(void) {
  g_stage_dev[ST_EMBED] = dt_sim(0);
  g_stage_dev[ST_BODY] = dt_sim(0);
  g_stage_dev[ST_HEAD] = dt_sim(1);
  for (int s = ST_EMBED; s < ST_COUNT; s++)
    g_w[s] = dt_randn(g_stage_dev[s], (uint64_t)s, 2, (const int64_t[]){4, 4});
}

static dt_tensor *run_stage(enum stage s, const dt_tensor *x) {
  dt_tensor *mm = dt_matmul(x, g_w[s]); // expect-error: device-mismatch
  dt_tensor *r = dt_relu(mm);
  dt_free(mm);
  return r;
}

int main(void) {
  setup();
  dt_tensor *x = dt_ones(g_stage_dev[ST_EMBED], DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *e = run_stage(ST_EMBED, x);
  dt_tensor *b = run_stage(ST_BODY, e);
  dt_tensor *h = run_stage(ST_HEAD, b);
  dt_free(h); dt_free(b); dt_free(e); dt_free(x);
  for (int s = 0; s < ST_COUNT; s++) dt_free(g_w[s]);
  puts("ok");
  return 0;
}
