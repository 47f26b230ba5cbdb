// heads.c — tower B: the same helpers, separate copies of the statics.
#include "placement.h"

static const int64_t S[1] = {3};

void tower_b_home(dt_device d) {
  home_set(d);
}

dt_tensor *tower_b_first(void) {
  return dt_full(ticket_device(), 2.0f, 1, S);
}

dt_tensor *tower_b_scale(const dt_tensor *t) {
  dt_tensor *f = dt_full(g_home, 0.5f, 1, S);
  dt_tensor *r = dt_mul(t, f);
  dt_free(f);
  return r;
}
