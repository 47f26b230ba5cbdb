/* tests/wholedb/prog_a/model.c — program A's weights, on sim:1. */
#include <dt/dt.h>
dt_tensor *make_weights(void) { return dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){4}); }
