/* tests/wholedb/prog_b/model.c — program B's weights, plain cpu. */
#include <dt/dt.h>
dt_tensor *make_weights(void) { return dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4}); }
