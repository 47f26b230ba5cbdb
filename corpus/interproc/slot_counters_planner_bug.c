// corpus/interproc/slot_counters_planner_bug.c — a placement planner keeps used-memory counters in
// an array of slot structs (`slots[k].used += size`) and gives each layer the least used slot:
// layers alternate sim:0, sim:1, sim:0, sim:1. The head adds layer 0's weights to layer 3's,
// which are on sim:1: found only by following the counters, an error.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

typedef struct slot { dt_device dev; int used; int layers; } slot;
typedef struct plan { slot slots[2]; dt_device layer_dev[4]; int placed; } plan;

static int least_used(const slot *s, int n) {
  int best = 0;
  for (int k = 1; k < n; k++)
    if (s[k].used < s[best].used) best = k;
  return best;
}

static void make_plan(plan *p) {
  memset(p, 0, sizeof *p);
  p->slots[0].dev = dt_sim(0);
  p->slots[1].dev = dt_sim(1);
  for (int i = 0; i < 4; i++) {
    int k = least_used(p->slots, 2);
    p->slots[k].used += 10;
    p->slots[k].layers++;
    p->layer_dev[i] = p->slots[k].dev;
    p->placed++;
  }
}

int main(void) {
  plan p;
  make_plan(&p);
  dt_tensor *w0 = dt_ones(p.layer_dev[0], DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *w2 = dt_ones(p.layer_dev[2], DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *w3 = dt_ones(p.layer_dev[3], DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *tied = dt_add(w0, w2);
  dt_tensor *head = dt_add(w0, w3); // expect-error: device-mismatch
  printf("%d %p\n", p.placed, (void *)head);
  dt_free(tied);
  dt_free(w3);
  dt_free(w2);
  dt_free(w0);
  return 0;
}
