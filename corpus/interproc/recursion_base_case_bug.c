// corpus/interproc/recursion_base_case_bug.c — the recursive reduction's base case copies the
// leaf "to be safe", but to the host: every result of the recursion is on cpu. The caller
// then divides by a device scalar. Bug: backend-mismatch at the dt_div in main (the
// recursion itself is consistent: cpu + cpu).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *tree_sum(dt_tensor *const *parts, int n) {
  if (n == 1) return dt_to_device(parts[0], dt_cpu());
  int half = n / 2;
  dt_tensor *l = tree_sum(parts, half);
  dt_tensor *r = tree_sum(parts + half, n - half);
  dt_tensor *s = dt_add(l, r);
  dt_free(l);
  dt_free(r);
  return s;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *shards[4];
  for (int i = 0; i < 4; i++) shards[i] = dt_randn(dev, (uint64_t)i, 1, (const int64_t[]){3});
  dt_tensor *total = tree_sum(shards, 4);
  dt_tensor *count = dt_full(dev, 4.0f, 0, NULL);
  dt_tensor *avg = dt_div(total, count); // expect-error: backend-mismatch
  printf("avg %lld\n", (long long)dt_numel(avg));
  dt_free(avg);
  dt_free(count);
  dt_free(total);
  for (int i = 0; i < 4; i++) dt_free(shards[i]);
  return 0;
}
