// The copy is made but the original handle is used.
#include <dt/dt.h>
int main(void) {
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *w = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *moved = dt_to_device(x, dt_sim(0));
  dt_tensor *y = dt_add(x, w); // expect-error: backend-mismatch
  dt_free(moved);
  dt_free(y);
  return 0;
}
