// corpus/flow/loop_carried_state_warn.c — a recurrent cell whose hidden state is moved to the
// second accelerator at the end of each step ("to free memory on sim:0"). The first step is
// fine; from the second step on the state is on sim:1 while the input weights are on sim:0.
// At the call, one incoming path (first iteration) agrees and the loop's back edge does not:
// a warning. At run time the second iteration fails at the flagged line.
#include <stdio.h>

#include <dt/dt.h>

#define HIDDEN 4

int main(void) {
  dt_device dev = dt_sim(0);
  const int64_t hh[2] = {HIDDEN, HIDDEN};
  dt_tensor *w_h = dt_randn(dev, 1, 2, hh);
  dt_tensor *h = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){1, HIDDEN});
  for (int t = 0; t < 3; t++) {
    dt_tensor *x = dt_randn(dev, 50 + (uint64_t)t, 2, (const int64_t[]){1, HIDDEN});
    dt_tensor *rec = dt_matmul(h, w_h); // expect-warning: device-mismatch
    dt_tensor *pre = dt_add(rec, x);
    dt_tensor *next = dt_tanh(pre);
    dt_free(h);
    h = dt_to_device(next, dt_sim(1));
    dt_free(next);
    dt_free(pre);
    dt_free(rec);
    dt_free(x);
  }
  printf("final state has %lld values\n", (long long)dt_numel(h));
  dt_free(h);
  dt_free(w_h);
  return 0;
}
