// corpus/interproc/helper_returns_clean.c — helpers that build and return tensors on the
// device they are given (a synthetic data generator and a weight initializer), called with
// two different devices from main. Clean: each helper's result follows its argument.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *make_batch(dt_device dev, int rows, int cols, uint64_t seed) {
  dt_tensor *noise = dt_randn(dev, seed, 2, (const int64_t[]){rows, cols});
  dt_tensor *shift = dt_full(dev, 0.5f, 1, (const int64_t[]){cols});
  dt_tensor *batch = dt_add(noise, shift);
  dt_free(shift);
  dt_free(noise);
  return batch;
}

static dt_tensor *xavier(dt_device dev, int fan_in, int fan_out, uint64_t seed) {
  dt_tensor *w = dt_randn(dev, seed, 2, (const int64_t[]){fan_in, fan_out});
  dt_tensor *scaled = dt_mul_scalar(w, 1.0f / (float)fan_in);
  dt_free(w);
  return scaled;
}

static float run_on(dt_device dev) {
  dt_tensor *x = make_batch(dev, 8, 4, 1);
  dt_tensor *w = xavier(dev, 4, 2, 2);
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  dt_free(m);
  dt_free(y);
  dt_free(w);
  dt_free(x);
  return v;
}

int main(void) {
  float a = run_on(dt_cpu());
  float b = run_on(dt_sim(1));
  printf("cpu %f sim %f\n", (double)a, (double)b);
  return 0;
}
