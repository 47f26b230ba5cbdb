// corpus/flow/stage_change_after_ninth_clean.c — a training loop of 12 steps moves the model to
// sim:1 at step 9 and its data follows from then on; after the loop both are on sim:1. Clean: a
// count of iterations kept apart must not decide it.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  const int64_t shape[2] = {2, 2};
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_ones(dev, DT_FLOAT, 2, shape);
  for (int step = 0; step < 12; step++) {
    if (step == 9) {
      dev = dt_sim(1);
      dt_tensor *moved = dt_to_device(w, dev);
      dt_free(w);
      w = moved;
    }
    dt_tensor *batch = dt_full(dev, 1.0f, 2, shape);
    dt_tensor *y = dt_matmul(batch, w);
    dt_free(y);
    dt_free(batch);
  }
  dt_tensor *probe = dt_full(dt_sim(1), 3.0f, 2, shape);
  dt_tensor *out = dt_add(w, probe);
  printf("%lld\n", (long long)dt_numel(out));
  dt_free(out);
  dt_free(probe);
  dt_free(w);
  return 0;
}
