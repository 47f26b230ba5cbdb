// corpus/flow/switch_fallthrough_bug.c — a missing `break` in the device switch: the
// ACCEL_SIM0 case falls through into ACCEL_SIM1, so whatever the configuration says, the
// weights land on sim:1 while the data loader always produces sim:0 batches. Every path
// through the switch gives sim:1: an error (device-mismatch).
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

typedef enum accel_kind { ACCEL_SIM0, ACCEL_SIM1 } accel_kind;

static dt_tensor *load_batch(int step) {
  return dt_randn(dt_sim(0), (uint64_t)step, 2, (const int64_t[]){4, 6});
}

int main(int argc, char **argv) {
  accel_kind which = (argc > 1 && strcmp(argv[1], "second") == 0) ? ACCEL_SIM1 : ACCEL_SIM0;
  dt_device dev = dt_sim(1);
  switch (which) {
  case ACCEL_SIM0:
    dev = dt_sim(0);
    /* fall through */
  case ACCEL_SIM1:
    dev = dt_sim(1);
    break;
  }
  dt_tensor *w = dt_randn(dev, 7, 2, (const int64_t[]){6, 2});
  dt_tensor *x = load_batch(0);
  dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
