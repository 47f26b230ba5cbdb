// corpus/devices/pipeline_missing_transfer_bug.c — the same pipeline, but stage 2 assumes its
// input is already on its device and skips the transfer. The first stage's output (sim:0)
// reaches the second stage's weights (sim:1): device-mismatch inside stage2_run, an error for
// its only calling context.
#include <stdio.h>

#include <dt/dt.h>

typedef struct pipeline {
  dt_tensor *w1; /* sim:0 */
  dt_tensor *w2; /* sim:1 */
} pipeline;

static dt_tensor *stage1_run(const pipeline *p, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, p->w1);
  dt_tensor *a = dt_tanh(h);
  dt_free(h);
  return a;
}

static dt_tensor *stage2_run(const pipeline *p, const dt_tensor *h) {
  return dt_matmul(h, p->w2); // expect-error: device-mismatch
}

int main(void) {
  pipeline p;
  p.w1 = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){4, 4});
  p.w2 = dt_randn(dt_sim(1), 2, 2, (const int64_t[]){4, 1});
  dt_tensor *x = dt_randn(dt_sim(0), 3, 2, (const int64_t[]){2, 4});
  dt_tensor *h = stage1_run(&p, x);
  dt_tensor *y = stage2_run(&p, h);
  printf("y %lld\n", (long long)dt_numel(y));
  return 0;
}
