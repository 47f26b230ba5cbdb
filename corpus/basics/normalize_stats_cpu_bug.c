// corpus/basics/normalize_stats_cpu_bug.c — feature normalization for a tabular model: the
// dataset statistics are computed once on the host, the batches live on the simulated
// accelerator. Bug: the cpu mean is subtracted from a sim:0 batch (backend-mismatch).
#include <stdio.h>

#include <dt/dt.h>

#define N_ROWS 6
#define N_COLS 3

typedef struct feature_stats {
  dt_tensor *mean;
  dt_tensor *scale;
} feature_stats;

static const float k_rows[N_ROWS * N_COLS] = {
    1.0f, 10.0f, 100.0f, 2.0f, 12.0f, 90.0f,  3.0f, 11.0f, 95.0f,
    4.0f, 13.0f, 85.0f,  5.0f, 9.0f,  105.0f, 6.0f, 14.0f, 80.0f,
};

static void stats_init(feature_stats *s) {
  float mean[N_COLS] = {0}, scale[N_COLS];
  for (int r = 0; r < N_ROWS; r++)
    for (int c = 0; c < N_COLS; c++) mean[c] += k_rows[r * N_COLS + c] / N_ROWS;
  for (int c = 0; c < N_COLS; c++) scale[c] = 1.0f / (mean[c] + 1.0f);
  const int64_t shape[1] = {N_COLS};
  s->mean = dt_from_floats(dt_cpu(), mean, 1, shape);
  s->scale = dt_from_floats(dt_cpu(), scale, 1, shape);
}

int main(void) {
  feature_stats stats;
  stats_init(&stats);

  dt_device accel = dt_sim(0);
  const int64_t batch_shape[2] = {N_ROWS, N_COLS};
  dt_tensor *batch = dt_from_floats(accel, k_rows, 2, batch_shape);

  dt_tensor *centered = dt_sub(batch, stats.mean); // expect-error: backend-mismatch
  dt_tensor *normed = dt_mul(centered, stats.scale);

  float out[N_ROWS * N_COLS];
  dt_read_floats(normed, out, N_ROWS * N_COLS);
  printf("first normalized value: %f\n", (double)out[0]);

  dt_free(normed);
  dt_free(centered);
  dt_free(batch);
  dt_free(stats.mean);
  dt_free(stats.scale);
  return 0;
}
