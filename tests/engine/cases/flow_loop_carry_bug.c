// A running state carried across iterations is moved to the host at the end of each step: the
// second iteration mixes it with device tensors. The first iteration is fine, so whether the
// call fails depends on how often the loop runs: a warning.
#include <dt/dt.h>
int main(int argc, char **argv) {
  (void)argv;
  dt_device dev = dt_sim(0);
  dt_tensor *h = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *w = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){4});
  for (int i = 0; i < argc; i++) {
    dt_tensor *n = dt_mul(h, w); // expect-warning: backend-mismatch
    dt_free(h);
    h = dt_to_device(n, dt_cpu());
    dt_free(n);
  }
  dt_free(h);
  return 0;
}
