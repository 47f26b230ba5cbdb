// corpus/interproc/globals_bug.c — the default device lives in a global initialized at file
// scope to sim:1 (a leftover from a two-accelerator experiment); the data loader ignores it
// and uses dt_sim(0). The global is never reassigned. Bug: device-mismatch in train_step().
#include <stdio.h>

#include <dt/dt.h>

static dt_device g_default_device = {DT_BACKEND_SIM, 1, 0};
static dt_tensor *g_weights;

static void setup_model(void) {
  g_weights = dt_randn(g_default_device, 1, 2, (const int64_t[]){3, 1});
}

static dt_tensor *next_batch(int i) {
  return dt_randn(dt_sim(0), (uint64_t)i, 2, (const int64_t[]){4, 3});
}

static float train_step(int i) {
  dt_tensor *x = next_batch(i);
  dt_tensor *y = dt_matmul(x, g_weights); // expect-error: device-mismatch
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  dt_free(m);
  dt_free(y);
  dt_free(x);
  return v;
}

int main(void) {
  setup_model();
  for (int i = 0; i < 2; i++) printf("%f\n", (double)train_step(i));
  dt_free(g_weights);
  return 0;
}
