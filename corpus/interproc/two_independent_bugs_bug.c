// corpus/interproc/two_independent_bugs_bug.c — two unrelated mistakes in one script: the
// training step mixes the two accelerators, and the reporting code compares float losses with
// int thresholds. Both are errors; at run time only the first is reached (the program aborts
// there), which is all the oracle can check.
#include <stdio.h>

#include <dt/dt.h>

static float train_step(void) {
  dt_tensor *w = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){2, 2});
  dt_tensor *x = dt_randn(dt_sim(1), 2, 2, (const int64_t[]){3, 2});
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  return v;
}

static int report(float loss) {
  dt_tensor *l = dt_full(dt_cpu(), loss, 1, (const int64_t[]){1});
  static const int64_t limit[1] = {1};
  dt_tensor *t = dt_from_ints(dt_cpu(), limit, 1, (const int64_t[]){1});
  dt_tensor *over = dt_greater(l, t); // expect-error: kind-mismatch
  int64_t flag = 0;
  dt_read_ints(over, &flag, 1);
  return (int)flag;
}

int main(void) {
  float loss = train_step();
  return report(loss);
}
