// provenance: blind round field5
// run-args: 
// Device picked by a two-deep ternary from the rank (argv) and an env flag. The reference
// tensor is always on sim:0, so rank 1 gives device-mismatch and USE_AD gives
// autodiff-expected; neither is known statically. Default run: rank 0, no autodiff: clean.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;
  const char *e = getenv("USE_AD");
  int use_ad = e && *e == '1';
  dt_device d = rank == 0 ? (use_ad ? dt_autodiff(dt_sim(0)) : dt_sim(0)) : dt_sim(1);
  dt_tensor *ref = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *x = dt_full(d, 2.0f, 1, (const int64_t[]){4});
  dt_tensor *y = dt_sub(x, ref); // expect-warning: device-mismatch, autodiff-expected
  dt_free(y); dt_free(x); dt_free(ref);
  puts("ok");
  return 0;
}
