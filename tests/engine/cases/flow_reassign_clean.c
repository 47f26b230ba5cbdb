// A tensor moved to the accelerator is reassigned; the stale host tag must not survive.
#include <dt/dt.h>
int main(void) {
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *w = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *moved = dt_to_device(x, dt_sim(0));
  dt_free(x);
  x = moved;
  dt_tensor *y = dt_add(x, w);
  dt_free(y);
  return 0;
}
