// corpus/interproc/globals_clean.c — a script that keeps its device and a lazily built lookup
// table in file-scope statics: the device is set once in main before anything is created,
// and the table is created on first use on that device. Clean.
#include <stdio.h>

#include <dt/dt.h>

static dt_device g_device;
static dt_tensor *g_position_table;

static const dt_tensor *position_table(void) {
  if (!g_position_table) g_position_table = dt_randn(g_device, 77, 2, (const int64_t[]){8, 4});
  return g_position_table;
}

static dt_tensor *embed(const dt_tensor *tokens) {
  return dt_add(tokens, position_table());
}

int main(void) {
  g_device = dt_sim(1);
  for (int step = 0; step < 3; step++) {
    dt_tensor *tok = dt_randn(g_device, (uint64_t)step, 2, (const int64_t[]){8, 4});
    dt_tensor *e = embed(tok);
    dt_tensor *s = dt_sum(e);
    float v = 0;
    dt_read_floats(s, &v, 1);
    printf("step %d: %f\n", step, (double)v);
    dt_free(s);
    dt_free(e);
    dt_free(tok);
  }
  dt_free(g_position_table);
  return 0;
}
