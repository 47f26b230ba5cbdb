// provenance: blind round field5
// Static device table indexed by an enum; each stage moves its input to its own device.
#include <dt/dt.h>
#include <stdio.h>

enum stage { ST_EMBED, ST_BODY, ST_HEAD, ST_COUNT };
static dt_device g_stage_dev[ST_COUNT];
static dt_tensor *g_w[ST_COUNT];

static void setup(void) {
  g_stage_dev[ST_EMBED] = dt_sim(0);
  g_stage_dev[ST_BODY] = dt_sim(1);
  g_stage_dev[ST_HEAD] = dt_cpu();
  for (int s = ST_EMBED; s < ST_COUNT; s++)
    g_w[s] = dt_randn(g_stage_dev[s], (uint64_t)s, 2, (const int64_t[]){4, 4});
}

static dt_tensor *run_stage(enum stage s, const dt_tensor *x) {
  dt_tensor *xin = dt_to_device(x, g_stage_dev[s]);
  dt_tensor *mm = dt_matmul(xin, g_w[s]);
  dt_tensor *r = dt_relu(mm);
  dt_free(mm); dt_free(xin);
  return r;
}

int main(void) {
  setup();
  dt_tensor *x = dt_ones(g_stage_dev[ST_EMBED], DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *cur = x;
  for (enum stage s = ST_EMBED; s < ST_COUNT; s++) {
    dt_tensor *n = run_stage(s, cur);
    if (cur != x) dt_free(cur);
    cur = n;
  }
  dt_tensor *bias = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *out = dt_add(cur, bias);
  float buf[8];
  dt_read_floats(out, buf, 8);
  printf("%.3f\n", (double)buf[0]);
  dt_free(out); dt_free(bias); dt_free(cur); dt_free(x);
  for (int s = 0; s < ST_COUNT; s++) dt_free(g_w[s]);
  return 0;
}
