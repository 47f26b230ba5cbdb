// towers.c — tower A: its own home device and its own ticket counter.
#include "placement.h"

static const int64_t S[1] = {3};

void tower_a_home(dt_device d) {
  home_set(d);
}

dt_tensor *tower_a_first(void) {
  return dt_ones(ticket_device(), DT_FLOAT, 1, S);
}

dt_tensor *tower_a_scale(const dt_tensor *t) {
  dt_tensor *f = dt_full(g_home, 3.0f, 1, S);
  dt_tensor *r = dt_mul(t, f);
  dt_free(f);
  return r;
}
