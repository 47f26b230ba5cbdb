// corpus/interproc/helper_two_devices_clean.c — one helper, called in three contexts with
// three different (but internally consistent) devices: cpu, sim:1 and autodiff<sim:0>. Clean:
// a context-sensitive analysis must not merge the contexts into a false mismatch.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *gated(const dt_tensor *x, const dt_tensor *gate) {
  dt_tensor *s = dt_sigmoid(gate);
  dt_tensor *y = dt_mul(x, s);
  dt_free(s);
  return y;
}

static float run(dt_device dev) {
  dt_tensor *x = dt_randn(dev, 1, 2, (const int64_t[]){2, 3});
  dt_tensor *g = dt_randn(dev, 2, 2, (const int64_t[]){2, 3});
  dt_tensor *y = gated(x, g);
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  dt_free(m);
  dt_free(y);
  dt_free(g);
  dt_free(x);
  return v;
}

int main(void) {
  float a = run(dt_cpu());
  float b = run(dt_sim(1));
  float c = run(dt_autodiff(dt_sim(0)));
  printf("%f %f %f\n", (double)a, (double)b, (double)c);
  return 0;
}
