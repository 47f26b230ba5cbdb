// main.c — three members (cpu, sim:0, sim:1) voted on the host.
#include "member.h"
#include <stdio.h>
int main(void) {
  member ms[3];
  member_init(&ms[0], dt_cpu(), 1);
  member_init(&ms[1], dt_sim(0), 2);
  member_init(&ms[2], dt_sim(1), 3);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *preds[3];
  for (int i = 0; i < 3; i++) preds[i] = member_predict_host(&ms[i], x);
  dt_tensor *all = dt_cat(3, preds, 1);
  dt_tensor *vote = dt_sum_dim(all, 1);
  float v[2];
  dt_read_floats(vote, v, 2);
  printf("votes %.3f %.3f (0..3)\n", v[0], v[1]);
  for (int i = 0; i < 3; i++) { dt_free(preds[i]); dt_free(ms[i].w); }
  dt_free(x); dt_free(all); dt_free(vote);
  return v[0] > 0 && v[0] < 3 ? 0 : 1;
}
