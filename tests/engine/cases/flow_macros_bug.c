// Helpers spelled as macros that expand to API calls.
#include <dt/dt.h>
#define VEC(dev, n) dt_zeros((dev), DT_FLOAT, 1, (const int64_t[]){(n)})
#define AXPY(a, x, y) dt_add(dt_mul_scalar((x), (a)), (y))
int main(void) {
  dt_tensor *x = VEC(dt_sim(0), 4);
  dt_tensor *y = VEC(dt_sim(1), 4);
  dt_tensor *z = AXPY(2.0f, x, y); // expect-error: device-mismatch
  dt_free(z);
  return 0;
}
