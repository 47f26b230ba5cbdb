// placement.h — header-only placement helpers, all `static`: every translation unit that
// includes it has its own g_home and its own ticket counter (the static local of
// next_ticket).  multi_statics_clean: clean only if each unit's copies are kept apart —
// merging them (one g_home, one counter) predicts mismatches that never happen.
#ifndef PLACEMENT_H
#define PLACEMENT_H
#include <dt/dt.h>

static dt_device g_home;

static inline void home_set(dt_device d) {
  g_home = d;
}

static inline int next_ticket(void) {
  static int ticket;
  return ticket++;
}

/* round-robin over sim:0 / sim:1, per unit */
static inline dt_device ticket_device(void) {
  return dt_sim(next_ticket() % 2);
}

/* towers.c */
void tower_a_home(dt_device d);
dt_tensor *tower_a_first(void);
dt_tensor *tower_a_scale(const dt_tensor *t);
/* heads.c */
void tower_b_home(dt_device d);
dt_tensor *tower_b_first(void);
dt_tensor *tower_b_scale(const dt_tensor *t);
#endif
