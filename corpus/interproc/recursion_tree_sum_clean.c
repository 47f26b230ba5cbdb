// corpus/interproc/recursion_tree_sum_clean.c — a pairwise (tree) reduction of per-shard
// gradients written recursively, then averaged with a device scalar. Clean: the recursion's
// summary keeps the shards' device.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *tree_sum(dt_tensor *const *parts, int n) {
  if (n == 1) return dt_mul_scalar(parts[0], 1.0f);
  int half = n / 2;
  dt_tensor *l = tree_sum(parts, half);
  dt_tensor *r = tree_sum(parts + half, n - half);
  dt_tensor *s = dt_add(l, r);
  dt_free(l);
  dt_free(r);
  return s;
}

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *shards[5];
  for (int i = 0; i < 5; i++) shards[i] = dt_randn(dev, (uint64_t)i, 1, (const int64_t[]){6});
  dt_tensor *total = tree_sum(shards, 5);
  dt_tensor *count = dt_full(dev, 5.0f, 0, NULL);
  dt_tensor *avg = dt_div(total, count);
  float v[6];
  dt_read_floats(avg, v, 6);
  printf("avg[0] %f\n", (double)v[0]);
  dt_free(avg);
  dt_free(count);
  dt_free(total);
  for (int i = 0; i < 5; i++) dt_free(shards[i]);
  return 0;
}
