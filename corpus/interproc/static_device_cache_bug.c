// provenance: blind round field3
// The "current device" is resolved once and cached in function-local statics; one caller
// still hard-codes sim:0 for its input.
#include <dt/dt.h>
#include <stdio.h>
static dt_device current_device(void) {
  static int ready = 0;
  static dt_device dev;
  if (!ready) { dev = dt_sim(1); ready = 1; }
  return dev;
}
static dt_tensor *make_param(uint64_t seed) {
  return dt_randn(current_device(), seed, 2, (const int64_t[]){4, 4});
}
int main(void) {
  dt_tensor *w1 = make_param(1), *w2 = make_param(2);
  dt_tensor *x = dt_randn(dt_sim(0), 3, 2, (const int64_t[]){2, 4});
  dt_tensor *h = dt_matmul(x, w1); // expect-error: device-mismatch
  dt_tensor *o = dt_matmul(h, w2);
  printf("%p\n", (void *)o);
  return 0;
}
