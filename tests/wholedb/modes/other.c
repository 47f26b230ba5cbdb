/* tests/wholedb/modes/other.c — a second program of the same database, with its own bug. */
#include <dt/dt.h>

int other_main(void) {
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *b = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){2});
  dt_free(dt_add(a, b)); // expect-error: backend-mismatch
  return 0;
}
