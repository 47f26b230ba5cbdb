/* tests/wholedb/prog_b/main.c — program B: the same function names as program A, but its
   make_weights (model.c) returns a plain tensor where B's main adds it to an autodiff one. */
#include <dt/dt.h>
dt_tensor *make_weights(void);
int main(void) {
  dt_tensor *x = dt_ones(dt_autodiff(dt_cpu()), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *w = make_weights();
  dt_tensor *y = dt_mul(x, w); /* autodiff-expected */
  dt_free(y);
  dt_free(w);
  dt_free(x);
  return 0;
}
