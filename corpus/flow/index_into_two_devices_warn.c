// corpus/flow/index_into_two_devices_warn.c — two shards of a table live on sim:0 and sim:1; the
// shard is picked by an index read from the input. Adding it to a sim:0 bias fails for one of
// the two shards: a warning (the oracle runs with index 1, where it fails).
// run-args: 1
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  int pick = argc > 1 ? atoi(argv[1]) & 1 : 0;
  const int64_t shape[1] = {8};
  dt_tensor *shard[2];
  shard[0] = dt_randn(dt_sim(0), 1, 1, shape);
  shard[1] = dt_randn(dt_sim(1), 2, 1, shape);
  dt_tensor *bias = dt_zeros(dt_sim(0), DT_FLOAT, 1, shape);
  dt_tensor *y = dt_add(shard[pick], bias); // expect-warning: device-mismatch
  printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(bias);
  dt_free(shard[1]);
  dt_free(shard[0]);
  return 0;
}
