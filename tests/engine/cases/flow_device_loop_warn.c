// A loop over the two simulated devices with a constant bound: each iteration is followed with
// its own device, so the second one (sim:1) meets the sim:0 weights. A failure in an iteration
// after the first is a warning (docs/corpus.md); moving the weights to each device is clean.
#include <dt/dt.h>
int main(void) {
  dt_tensor *w = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  for (int d = 0; d < 2; d++) {
    dt_tensor *x = dt_ones(dt_sim(d), DT_FLOAT, 1, (const int64_t[]){4});
    dt_tensor *y = dt_mul(x, w); // expect-warning: device-mismatch
    dt_free(y);
    dt_free(x);
  }
  for (int d = 0; d < 2; d++) {
    dt_device dev = dt_sim(d);
    dt_tensor *a = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){4});
    dt_tensor *b = dt_to_device(w, dev);
    dt_tensor *c = dt_mul(a, b);
    dt_free(c);
  }
  return 0;
}
