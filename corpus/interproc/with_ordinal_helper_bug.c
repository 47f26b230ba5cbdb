// corpus/interproc/with_ordinal_helper_bug.c — a helper returns a copy of a device with another
// ordinal (a field store on its by-value parameter). The replica's activations are computed on
// with_ordinal(dev, 1) and summed with the primary's, still on dev. Bug: device-mismatch.
#include <stdio.h>

#include <dt/dt.h>

static dt_device with_ordinal(dt_device d, int ordinal) {
  d.ordinal = ordinal;
  return d;
}

static dt_tensor *activations(dt_device dev, uint64_t seed) {
  dt_tensor *x = dt_randn(dev, seed, 2, (const int64_t[]){2, 2});
  dt_tensor *a = dt_sigmoid(x);
  dt_free(x);
  return a;
}

int main(void) {
  dt_device primary = dt_sim(0);
  dt_device replica = with_ordinal(primary, 1);
  dt_tensor *a0 = activations(primary, 1);
  dt_tensor *a1 = activations(replica, 2);
  dt_tensor *sum = dt_add(a0, a1); // expect-error: device-mismatch
  printf("%lld\n", (long long)dt_numel(sum));
  return 0;
}
