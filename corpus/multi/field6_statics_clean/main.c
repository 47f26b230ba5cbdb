// main.c — tower A's home is sim:1, tower B's home is sim:0 (set last).  Each tower's
// first ticket is 0 in its own unit, so both first tensors are on sim:0.
#include "placement.h"
#include <stdio.h>

int main(void) {
  tower_a_home(dt_sim(1));
  tower_b_home(dt_sim(0));

  dt_tensor *a = tower_a_first();      /* towers.c ticket 0 -> sim:0 */
  dt_tensor *b = tower_b_first();      /* heads.c ticket 0 -> sim:0 */
  dt_tensor *ab = dt_add(a, b);

  dt_tensor *x1 = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor *sa = tower_a_scale(x1);   /* A's home: sim:1 */
  dt_tensor *sb = tower_b_scale(ab);   /* B's home: sim:0 */
  dt_tensor *sa0 = dt_to_device(sa, dt_device_of(sb));
  dt_tensor *out = dt_add(sa0, sb);
  /* main's own ticket counter starts at 0 too */
  dt_tensor *m = dt_ones(ticket_device(), DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor *om = dt_sub(out, m);
  float v[3];
  dt_read_floats(om, v, 3);
  printf("%.2f %.2f %.2f\n", (double)v[0], (double)v[1], (double)v[2]);
  dt_tensor *all[] = {a, b, ab, x1, sa, sb, sa0, out, m, om};
  for (int i = 0; i < 10; i++)
    dt_free(all[i]);
  return 0;
}
