// corpus/flow/break_only_exit_bug.c — a `for (;;)` loop that can only be left through its
// `break`, and the break path first moves the snapshot to the host for logging. After the
// loop the snapshot is combined with device weights: every path that reaches the call comes
// through the break, so it is an error (backend-mismatch), not a warning.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 3, 1, (const int64_t[]){4});
  dt_tensor *snapshot = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){4});
  int step = 0;
  for (;;) {
    dt_tensor *upd = dt_mul_scalar(w, 0.5f);
    dt_free(w);
    w = upd;
    if (++step == 4) {
      dt_tensor *host = dt_to_device(w, dt_cpu());
      dt_free(snapshot);
      snapshot = host;
      break;
    }
  }
  dt_tensor *drift = dt_sub(w, snapshot); // expect-error: backend-mismatch
  printf("drift %lld\n", (long long)dt_numel(drift));
  dt_free(drift);
  dt_free(snapshot);
  dt_free(w);
  return 0;
}
