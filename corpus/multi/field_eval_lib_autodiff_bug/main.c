// main.c — evaluates a plain snapshot (fine), then the tracked weights directly (wrong).
#include "eval.h"
#include <stdio.h>
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 2}));
  dt_tensor *snap = dt_inner(w);
  printf("snapshot %.1f\n", eval_on_host(snap));
  printf("live %.1f\n", eval_on_host(w));
  return 0;
}
