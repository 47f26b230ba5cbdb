// corpus/devices/config_device_clean.c — a run configuration struct parsed from flags holds the
// training device; model init, data loading, the train loop and evaluation all read cfg.dev.
// `--train` wraps it in autodiff. Clean for every flag set: the device is unknown statically,
// but every operand derives from the same cfg.dev.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

typedef struct config {
  dt_device dev;
  int steps;
  int train;
} config;

static config parse_flags(int argc, char **argv) {
  config c = {dt_cpu(), 3, 0};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--sim") == 0) c.dev = dt_sim(0);
    if (strcmp(argv[i], "--sim1") == 0) c.dev = dt_sim(1);
    if (strcmp(argv[i], "--train") == 0) c.train = 1;
  }
  if (c.train) c.dev = dt_autodiff(c.dev);
  return c;
}

static dt_tensor *batch(const config *c, int i) {
  return dt_randn(c->dev, (uint64_t)i, 2, (const int64_t[]){4, 2});
}

int main(int argc, char **argv) {
  config cfg = parse_flags(argc, argv);
  dt_tensor *w = dt_randn(cfg.dev, 99, 2, (const int64_t[]){2, 1});
  for (int i = 0; i < cfg.steps; i++) {
    dt_tensor *x = batch(&cfg, i);
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *l = dt_mean(y);
    float v = 0;
    dt_read_floats(l, &v, 1);
    printf("step %d: %f\n", i, (double)v);
    dt_free(l);
    dt_free(y);
    dt_free(x);
  }
  float wv[2];
  dt_read_floats(w, wv, 2); /* host reads work on every device, autodiff included */
  printf("w = (%f, %f)\n", (double)wv[0], (double)wv[1]);
  dt_free(w);
  return 0;
}
