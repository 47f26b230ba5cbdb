// provenance: blind round field
// Gradient accumulation over devices: the accumulator stays on sim:0 while shards come from each device.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_tensor *acc = dt_zeros(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  for (int d = 0; d < 2; d++) {
    dt_tensor *shard = dt_full(dt_sim(d), 1.0f, 1, (const int64_t[]){4});
    dt_tensor *n = dt_add(acc, shard); // expect-warning: device-mismatch
    dt_free(acc); dt_free(shard);
    acc = n;
  }
  float v[4];
  dt_read_floats(acc, v, 4);
  printf("%.1f\n", v[0]);
  return 0;
}
