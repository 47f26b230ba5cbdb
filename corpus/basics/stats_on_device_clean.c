// corpus/basics/stats_on_device_clean.c — the fixed version of normalize_stats_cpu_bug.c: the
// statistics are computed on the host, then uploaded once to the device the batches use.
// Clean: every operand of every call shares sim:0.
#include <stdio.h>

#include <dt/dt.h>

#define N_ROWS 4
#define N_COLS 2

typedef struct feature_stats {
  dt_tensor *mean;
  dt_tensor *scale;
} feature_stats;

static void stats_init(feature_stats *s, const float *rows, dt_device dev) {
  float mean[N_COLS] = {0}, scale[N_COLS];
  for (int r = 0; r < N_ROWS; r++)
    for (int c = 0; c < N_COLS; c++) mean[c] += rows[r * N_COLS + c] / N_ROWS;
  for (int c = 0; c < N_COLS; c++) scale[c] = 1.0f / (mean[c] + 1.0f);
  const int64_t shape[1] = {N_COLS};
  dt_tensor *host_mean = dt_from_floats(dt_cpu(), mean, 1, shape);
  dt_tensor *host_scale = dt_from_floats(dt_cpu(), scale, 1, shape);
  s->mean = dt_to_device(host_mean, dev);
  s->scale = dt_to_device(host_scale, dev);
  dt_free(host_mean);
  dt_free(host_scale);
}

int main(void) {
  static const float rows[N_ROWS * N_COLS] = {1, 10, 2, 12, 3, 11, 4, 13};
  dt_device accel = dt_sim(0);
  feature_stats stats;
  stats_init(&stats, rows, accel);

  dt_tensor *batch = dt_from_floats(accel, rows, 2, (const int64_t[]){N_ROWS, N_COLS});
  dt_tensor *centered = dt_sub(batch, stats.mean);
  dt_tensor *normed = dt_mul(centered, stats.scale);
  dt_tensor *total = dt_sum(normed);

  float t = 0;
  if (dt_read_floats(total, &t, 1) != 0) return 1;
  printf("sum of normalized features: %f\n", (double)t);

  dt_free(total);
  dt_free(normed);
  dt_free(centered);
  dt_free(batch);
  dt_free(stats.mean);
  dt_free(stats.scale);
  return 0;
}
