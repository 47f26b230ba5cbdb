// provenance: blind round field4
// Precision ladder with switch fallthrough: every case only adds work on the same device, and
// the device itself is chosen before the switch. Looks like the resume bug; it is not.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

static dt_device dev_for(int gpu) { return gpu ? dt_sim(1) : dt_sim(0); }

int main(int argc, char **argv) {
  int level = argc > 1 ? atoi(argv[1]) : 2;
  dt_device d = dev_for(argc > 2);
  dt_tensor *x = dt_randn(d, 1, 1, (const int64_t[]){4});
  dt_tensor *w = dt_randn(d, 2, 1, (const int64_t[]){4});
  dt_tensor *acc = dt_zeros(dt_device_of(x), DT_FLOAT, 1, (const int64_t[]){4});
  switch (level) {
  case 3: { dt_tensor *t = dt_add(acc, w); dt_free(acc); acc = t; }
  /* fall through */
  case 2: { dt_tensor *t = dt_mul(x, w); dt_tensor *u = dt_add(acc, t); dt_free(t); dt_free(acc); acc = u; }
  /* fall through */
  case 1: { dt_tensor *t = dt_add(acc, x); dt_free(acc); acc = t; }
  /* fall through */
  default: break;
  }
  float out[4];
  dt_read_floats(acc, out, 4);
  printf("%.3f\n", (double)out[0]);
  return 0;
}
