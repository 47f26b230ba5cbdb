// tests/install/clang_tidy/step.c — a unit whose tensor comes from a function another unit
// defines: checked alone, as a clang-tidy stand-in checks it, its tag is unknown, and tagcheck
// says so (the whole program needs -p DIR).
#include <dt/dt.h>

dt_tensor *load_weights(void);

void step(void) {
  dt_tensor *w = load_weights();
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);
  dt_free(dt_add(w, x));
}
