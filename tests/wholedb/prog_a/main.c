/* tests/wholedb/prog_a/main.c — program A of a database holding two programs: its make_weights
   (model.c) puts weights on sim:1 while the batch is on sim:0. */
#include <dt/dt.h>
dt_tensor *make_weights(void);
int main(void) {
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *w = make_weights();
  dt_tensor *y = dt_add(x, w); /* device-mismatch */
  dt_free(y);
  dt_free(w);
  dt_free(x);
  return 0;
}
