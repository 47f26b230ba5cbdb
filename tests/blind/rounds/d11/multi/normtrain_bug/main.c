// provenance: blind round d11
// Feature-normalised regression: statistics are fitted once (stats.c), the device is picked
// from the environment (opts.c), the model lives in model.c.
#include <stdio.h>
#include "model.h"
#include "opts.h"
#include "stats.h"

#define N_ROWS 32

static float g_rows[N_ROWS * NT_FEAT];
static float g_targets[N_ROWS];

static void build_dataset(void) {
  for (int i = 0; i < N_ROWS; i++) {
    float t = 0.0f;
    for (int j = 0; j < NT_FEAT; j++) {
      float v = 3.0f * (float)j + (float)((i * 7 + j * 3) % 9) * 0.5f;
      g_rows[i * NT_FEAT + j] = v;
      t += (j % 2 ? 0.2f : -0.1f) * v;
    }
    g_targets[i] = t;
  }
}

static float loss_value(const dt_tensor *loss) {
  float v = 0.0f;
  dt_tensor *p = dt_inner(loss);
  dt_read_floats(p, &v, 1);
  dt_free(p);
  return v;
}

int main(int argc, char **argv) {
  run_opts opts;
  opts_from_env(&opts, argc, argv);
  dt_device dev = select_device(&opts);
  describe_device("device", dev);

  build_dataset();
  stats_fit(dev, g_rows, N_ROWS, NT_FEAT);

  nt_model model;
  model_init(&model, dev);
  int n_batches = N_ROWS / opts.batch;
  for (int e = 0; e < opts.epochs; e++) {
    float total = 0.0f;
    for (int b = 0; b < n_batches; b++) {
      int64_t xs[2] = {opts.batch, NT_FEAT}, ys[2] = {opts.batch, 1};
      dt_tensor *x = dt_from_floats(model.ad, &g_rows[b * opts.batch * NT_FEAT], 2, xs);
      dt_tensor *y = dt_from_floats(model.ad, &g_targets[b * opts.batch], 2, ys);
      dt_tensor *xn = stats_normalize(x);
      dt_tensor *pred = model_forward(&model, xn);
      dt_tensor *loss = dt_mse_loss(pred, y);
      dt_backward(loss);
      total += loss_value(loss);
      model_sgd(&model, opts.lr);
      dt_free(loss); dt_free(pred); dt_free(xn); dt_free(x); dt_free(y);
    }
    printf("%s epoch %d loss %.4f\n", opts.log_prefix, e, total / n_batches);
  }
  model_free(&model);
  stats_release();
  return 0;
}
