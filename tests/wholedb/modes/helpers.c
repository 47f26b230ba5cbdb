/* tests/wholedb/modes/helpers.c — a helper whose call fails for main.c's operands. */
#include "model.h"

dt_tensor *scale(dt_tensor *x, dt_tensor *y) {
  return dt_mul(x, y); // expect-error: backend-mismatch
}
