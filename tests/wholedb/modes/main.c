/* tests/wholedb/modes/main.c — four findings whose tags come from another unit, a header, a
 * global set elsewhere and (the fourth, reported in helpers.c) a helper of a third unit. */
#include "model.h"

int main(void) {
  config_init();
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *w = load_weights();
  dt_free(dt_add(x, w)); // expect-error: backend-mismatch
  dt_tensor *h = dt_ones(model_device(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_free(dt_sub(x, h)); // expect-error: backend-mismatch
  dt_tensor *g = dt_ones(g_dev, DT_FLOAT, 1, (const int64_t[]){4});
  dt_free(dt_mul(x, g)); // expect-error: backend-mismatch
  dt_free(scale(x, w));
  return 0;
}
