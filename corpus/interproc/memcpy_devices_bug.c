// provenance: blind round field5
// Runtime placement is copied with memcpy into a per-phase struct, then the copy's aux device
// is retargeted to sim:1 for the evaluation phase. The eval reuses the main-device weights:
// main is still sim:0, aux is sim:1 -> device-mismatch.
#include <dt/dt.h>
#include <string.h>
#include <stdio.h>

struct placement { dt_device main; dt_device aux; int nthreads; };

static void place_default(struct placement *p) {
  memset(p, 0, sizeof *p);
  p->main = dt_sim(0);
  p->aux = dt_sim(0);
  p->nthreads = 2;
}

int main(void) {
  struct placement train, eval;
  place_default(&train);
  memcpy(&eval, &train, sizeof eval);
  eval.aux = dt_sim(1);
  dt_tensor *w = dt_randn(train.main, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_ones(eval.aux, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  dt_free(y); dt_free(x); dt_free(w);
  puts("done");
  return 0;
}
