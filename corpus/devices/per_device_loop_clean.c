// provenance: blind round field
// Data-parallel style: the same step is run on each simulated device with its own replicas.
#include <dt/dt.h>
#include <stdio.h>

#define NDEV 2

static float local_step(dt_device dev, const float *shard) {
  dt_tensor *w = dt_full(dev, 1.0f, 2, (const int64_t[]){2, 1});
  dt_tensor *x = dt_from_floats(dev, shard, 2, (const int64_t[]){2, 2});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *s = dt_sum(y);
  float v;
  dt_read_floats(s, &v, 1);
  dt_free(w); dt_free(x); dt_free(y); dt_free(s);
  return v;
}

int main(void) {
  const float data[NDEV][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  float total = 0;
  dt_tensor *partial[NDEV];
  for (int d = 0; d < NDEV; d++) {
    dt_device dev = dt_sim(d);
    float v = local_step(dev, data[d]);
    partial[d] = dt_full(dt_cpu(), v, 1, (const int64_t[]){1});
    total += v;
  }
  dt_tensor *all = dt_cat(NDEV, partial, 0);
  dt_tensor *s = dt_sum(all);
  float check;
  dt_read_floats(s, &check, 1);
  printf("allreduce %.1f %.1f (expect 36)\n", total, check);
  for (int d = 0; d < NDEV; d++) dt_free(partial[d]);
  dt_free(all); dt_free(s);
  return check == 36.0f ? 0 : 1;
}
