// provenance: blind round field3
// The worker's sim ordinal comes from argv (atoi): unknown to the analyzer, so nothing may be
// reported even though data made on sim:0 meets it (the default run passes 0).
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int rank = argc > 1 ? atoi(argv[1]) : 0;
  dt_device mine = dt_sim(rank);
  dt_tensor *shard = dt_randn(mine, 4, 1, (const int64_t[]){8});
  dt_tensor *bias = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){8});
  dt_tensor *s = dt_add(shard, bias);
  dt_tensor *t = dt_sum(s);
  float v; dt_read_floats(t, &v, 1);
  printf("%f\n", v);
  return 0;
}
