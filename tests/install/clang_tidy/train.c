/* tests/install/clang_tidy/train.c — a C unit with one backend-mismatch. */
#include <dt/dt.h>

void train_step(void) {
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);
  dt_tensor *w = dt_ones(dt_sim(0), DT_FLOAT, 0, 0);
  dt_free(dt_mul(x, w)); // expect-error: backend-mismatch
}
