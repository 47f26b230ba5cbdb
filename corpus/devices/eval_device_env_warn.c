// provenance: blind round field
// run-env: EVAL_ON=sim1
// Evaluation device from the environment; the eval weights are moved there, the eval batch is not.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { dt_device train_dev, eval_dev; } devices;

static devices pick(void) {
  devices d = { dt_sim(0), dt_sim(0) };
  const char *e = getenv("EVAL_ON");
  if (e && strcmp(e, "sim1") == 0) d.eval_dev = dt_sim(1);
  return d;
}

int main(void) {
  devices d = pick();
  dt_tensor *w = dt_full(d.train_dev, 0.5f, 2, (const int64_t[]){2, 2});
  dt_tensor *batch = dt_ones(d.train_dev, DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *w_eval = dt_to_device(w, d.eval_dev);
  dt_tensor *out = dt_matmul(batch, w_eval); // expect-warning: device-mismatch
  float v[6];
  dt_read_floats(out, v, 6);
  printf("%.2f\n", v[0]);
  return 0;
}
