// provenance: blind round field4
// Resume-from-stage with switch fallthrough: a run resumed at stage 1 skips the move done in
// stage 0, so the stage-2 add mixes sim:1 weights with a sim:0 activation. Default start is 0.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int start = argc > 1 ? atoi(argv[1]) : 0;
  dt_tensor *x = dt_randn(dt_sim(0), 1, 1, (const int64_t[]){4});
  dt_tensor *w = dt_randn(dt_sim(1), 2, 1, (const int64_t[]){4});
  dt_tensor *y = NULL;
  switch (start) {
  case 0: {
    dt_tensor *m = dt_to_device(x, dt_sim(1));
    dt_free(x);
    x = m;
  }
  /* fall through */
  case 1:
    x = dt_relu(x);
    /* fall through */
  default:
    y = dt_add(x, w); // expect-warning: device-mismatch
    break;
  }
  printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
