// provenance: blind round field3
// Shards alternate between sim:0 and sim:1 by index parity; the per-shard weights are made by
// the same rule in a separate loop, so shard i always meets weight i on its own device.
#include <dt/dt.h>
#include <stdio.h>
#define NS 4
typedef struct { dt_tensor *x; dt_tensor *w; } shard;
static dt_device shard_dev(int i) { return dt_sim(i % 2); }
int main(void) {
  shard s[NS];
  for (int i = 0; i < NS; i++) s[i].x = dt_randn(shard_dev(i), (uint64_t)i, 2, (const int64_t[]){2, 3});
  for (int i = 0; i < NS; i++) s[i].w = dt_randn(shard_dev(i), (uint64_t)i + 10, 2, (const int64_t[]){3, 1});
  dt_tensor *outs[NS];
  for (int i = 0; i < NS; i++) {
    dt_tensor *y = dt_matmul(s[i].x, s[i].w);
    outs[i] = dt_to_device(y, dt_cpu());
    dt_free(y);
  }
  dt_tensor *all = dt_cat(NS, outs, 0);
  dt_tensor *t = dt_sum(all);
  float v; dt_read_floats(t, &v, 1);
  printf("%f\n", v);
  return 0;
}
