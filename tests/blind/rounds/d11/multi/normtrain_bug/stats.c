// provenance: blind round d11
#include "stats.h"
#include <math.h>
#include <stdlib.h>

static dt_tensor *g_mean;
static dt_tensor *g_inv_std;
static int g_fitted;

void stats_fit(dt_device d, const float *rows, int n_rows, int n_feat) {
  float *mu = calloc((size_t)n_feat, sizeof *mu);
  float *is = calloc((size_t)n_feat, sizeof *is);
  for (int j = 0; j < n_feat; j++) {
    double s = 0.0, s2 = 0.0;
    for (int i = 0; i < n_rows; i++) {
      double v = rows[i * n_feat + j];
      s += v;
      s2 += v * v;
    }
    double m = s / n_rows;
    double var = s2 / n_rows - m * m;
    mu[j] = (float)m;
    is[j] = (float)(1.0 / sqrt(var + 1e-5));
  }
  int64_t shape[2] = {1, n_feat};
  stats_release();
  g_mean = dt_from_floats(d, mu, 2, shape);
  g_inv_std = dt_from_floats(d, is, 2, shape);
  g_fitted = 1;
  free(mu);
  free(is);
}

dt_tensor *stats_normalize(const dt_tensor *x) {
  if (!g_fitted) return dt_mul_scalar(x, 1.0f);
  dt_tensor *c = dt_sub(x, g_mean); // expect-error: autodiff-expected
  dt_tensor *n = dt_mul(c, g_inv_std);
  dt_free(c);
  return n;
}

void stats_release(void) {
  dt_free(g_mean);
  dt_free(g_inv_std);
  g_mean = g_inv_std = NULL;
  g_fitted = 0;
}
