// corpus/interproc/array_gather_clean.c — the correct version of a two-device shard layout:
// shards are produced round-robin on sim:0 and sim:1, then gathered onto sim:0 (dt_to_device
// into a second array) before dt_cat. Clean: the gathered array is all sim:0 whatever the
// index, even though the source array mixes devices.
#include <stdio.h>

#include <dt/dt.h>

#define N 4

int main(void) {
  dt_device devices[2] = {dt_sim(0), dt_sim(1)};
  dt_device home = dt_sim(0);
  dt_tensor *shards[N], *gathered[N];
  for (int i = 0; i < N; i++)
    shards[i] = dt_randn(devices[i % 2], (uint64_t)i, 2, (const int64_t[]){1, 3});
  for (int i = 0; i < N; i++) gathered[i] = dt_to_device(shards[i], home);
  dt_tensor *whole = dt_cat(N, gathered, 0);
  dt_tensor *w = dt_ones(home, DT_FLOAT, 2, (const int64_t[]){3, 1});
  dt_tensor *y = dt_matmul(whole, w);
  float v[N];
  dt_read_floats(y, v, N);
  printf("row sums: %f %f %f %f\n", (double)v[0], (double)v[1], (double)v[2], (double)v[3]);
  dt_free(y);
  dt_free(w);
  dt_free(whole);
  for (int i = 0; i < N; i++) {
    dt_free(gathered[i]);
    dt_free(shards[i]);
  }
  return 0;
}
