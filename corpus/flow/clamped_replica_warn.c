// run-env: REPLICA=1
// The replica that scores hard examples is read from the environment and clamped to the two
// simulated devices the job has (`if (r < 0 || r > 1) r = 0;`). The model lives on sim:0; a
// batch made on the clamped replica meets it, so the check fails for replica 1 only: the
// clamp makes the ordinal one of {0, 1}, a branch the analyzer cannot decide — a warning.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define FEATURES 4

typedef struct {
  dt_tensor *w;
  dt_device dev;
} model;

static void model_init(model *m, dt_device dev) {
  m->dev = dev;
  m->w = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){FEATURES, 1});
}

static dt_device replica_device(void) {
  const char *s = getenv("REPLICA");
  int r = s ? atoi(s) : 0;
  if (r < 0 || r > 1) r = 0;
  return dt_sim(r);
}

static float score(const model *m, dt_device data_dev) {
  dt_tensor *x = dt_randn(data_dev, 7, 2, (const int64_t[]){3, FEATURES});
  dt_tensor *y = dt_matmul(x, m->w); // expect-warning: device-mismatch
  dt_tensor *s = dt_sum(y);
  float v = 0.0f;
  if (s) dt_read_floats(s, &v, 1);
  dt_free(s);
  dt_free(y);
  dt_free(x);
  return v;
}

int main(void) {
  model m;
  model_init(&m, dt_sim(0));
  dt_device hard = replica_device();
  float total = 0.0f;
  for (int step = 0; step < 3; step++) total += score(&m, hard);
  printf("hard-example score %.3f\n", total);
  dt_free(m.w);
  return 0;
}
