// corpus/interproc/array_device_table_bug.c — "model parallel" by accident: the shards of one
// activation are produced on the devices of a round-robin table {sim:0, sim:1} in a loop, then
// concatenated as if they were on one device. The loop has a constant bound, so shards[0] is on
// sim:0 and shards[1] on sim:1 on every path: an error (device-mismatch) at dt_cat, where the
// run fails.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device devices[2];
  devices[0] = dt_sim(0);
  devices[1] = dt_sim(1);
  dt_tensor *shards[2];
  for (int i = 0; i < 2; i++)
    shards[i] = dt_randn(devices[i % 2], (uint64_t)i, 2, (const int64_t[]){2, 4});
  dt_tensor *whole = dt_cat(2, shards, 0); // expect-error: device-mismatch
  printf("whole %lld\n", (long long)dt_numel(whole));
  dt_free(whole);
  for (int i = 0; i < 2; i++) dt_free(shards[i]);
  return 0;
}
