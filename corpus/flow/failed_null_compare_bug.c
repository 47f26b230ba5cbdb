/* failed_null_compare_bug.c — a staging step that fails for sure (a sim:1 batch wrapped into
 * the autodiff context of sim:0) is tested with `!= NULL`, and only a staged batch would make
 * the evaluation fall back to the host: the test is false on every path (a failed call gives
 * NULL), so the evaluation always runs on sim:0 against host weights. Bugs: device-mismatch,
 * backend-mismatch. */
#include <dt/dt.h>
#include <stdio.h>

static const int64_t kShape[2] = {2, 2};

int main(void) {
  dt_tensor *w = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *batch = dt_ones(dt_sim(1), DT_FLOAT, 2, kShape);
  dt_tensor *staged = dt_from_inner(dt_autodiff(dt_sim(0)), batch); // expect-error: device-mismatch
  dt_device eval_dev = dt_sim(0);
  if (staged != NULL) eval_dev = dt_cpu();
  dt_tensor *x = dt_ones(eval_dev, DT_FLOAT, 2, kShape);
  dt_tensor *y = dt_matmul(x, w); // expect-error: backend-mismatch
  printf("%s\n", y ? "ok" : dt_last_error());
  dt_free(y);
  dt_free(x);
  dt_free(staged);
  dt_free(batch);
  dt_free(w);
  return 0;
}
