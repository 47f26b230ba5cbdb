// An inner block declares its own `x` on the host; after the block the outer `x` (sim:0) is
// the one in scope again.
#include <dt/dt.h>
int main(void) {
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *w = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){2});
  {
    dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
    dt_tensor *y = dt_add(x, w); // expect-error: backend-mismatch
    dt_free(y);
    dt_free(x);
  }
  dt_tensor *z = dt_add(x, w);
  dt_free(z);
  return 0;
}
