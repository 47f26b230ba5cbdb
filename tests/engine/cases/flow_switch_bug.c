// A device chosen by a switch over a mode read from the command line; the weights always
// live on sim:0, so only the sim:1 case fails (warning), and the decidable mode is an error.
#include <stdlib.h>
#include <dt/dt.h>
static dt_device pick(int mode) {
  switch (mode) {
    case 0: return dt_sim(0);
    case 1: return dt_sim(1);
    default: return dt_sim(0);
  }
}
int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  dt_tensor *w = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *x = dt_ones(pick(mode), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *y = dt_add(x, w); // expect-warning: device-mismatch
  dt_tensor *z = dt_ones(pick(1), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *q = dt_add(z, w); // expect-error: device-mismatch
  dt_free(y);
  dt_free(q);
  return 0;
}
