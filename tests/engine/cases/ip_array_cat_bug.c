// Arrays of tensors: one built element by element, one filled in a loop, passed to dt_cat.
#include <dt/dt.h>
int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *parts[3];
  parts[0] = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){2});
  parts[1] = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){2});
  parts[2] = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *all = dt_cat(3, parts, 0); // expect-error: backend-mismatch
  dt_tensor *shards[4];
  for (int i = 0; i < 4; i++) shards[i] = dt_randn(dev, (uint64_t)i, 1, (const int64_t[]){2});
  dt_tensor *joined = dt_cat(4, shards, 0);
  shards[2] = dt_from_ints(dev, (const int64_t[]){1, 2}, 1, (const int64_t[]){2});
  dt_tensor *mixed = dt_cat(4, shards, 0); // expect-error: kind-mismatch
  dt_tensor *pair = dt_cat(2, (dt_tensor *[]){joined, parts[2]}, 0); // expect-error: backend-mismatch
  dt_free(all);
  dt_free(mixed);
  dt_free(pair);
  return 0;
}
