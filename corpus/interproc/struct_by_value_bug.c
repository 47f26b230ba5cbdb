// provenance: blind round field2
// Trainer passed by value through two layers of helpers; its eval device differs from the model's.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *w; } model;
typedef struct { model net; dt_device data_dev; int steps; } trainer;
static dt_tensor *batch(trainer t, int i) {
  return dt_randn(t.data_dev, (uint64_t)i, 2, (const int64_t[]){2, 3});
}
static dt_tensor *run_step(trainer t, int i) {
  dt_tensor *x = batch(t, i);
  dt_tensor *y = dt_matmul(x, t.net.w); // expect-error: device-mismatch
  dt_free(x);
  return y;
}
static trainer make_trainer(dt_device model_dev, dt_device data_dev) {
  trainer t;
  t.net.dev = model_dev;
  t.net.w = dt_randn(model_dev, 9, 2, (const int64_t[]){3, 1});
  t.data_dev = data_dev;
  t.steps = 2;
  return t;
}
int main(void) {
  trainer t = make_trainer(dt_sim(0), dt_sim(1));
  for (int i = 0; i < t.steps; i++) dt_free(run_step(t, i));
  return 0;
}
