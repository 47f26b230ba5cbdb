// corpus/flow/switch_backend_clean.c — the accelerator is picked by a `switch` over a config
// enum parsed from the command line (every case sets the device and breaks), and the whole
// model follows that device. Clean.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

typedef enum accel_kind { ACCEL_HOST, ACCEL_SIM0, ACCEL_SIM1 } accel_kind;

typedef struct run_config {
  accel_kind accel;
  int epochs;
} run_config;

static run_config parse_args(int argc, char **argv) {
  run_config c = {ACCEL_HOST, 2};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "sim0") == 0) c.accel = ACCEL_SIM0;
    if (strcmp(argv[i], "sim1") == 0) c.accel = ACCEL_SIM1;
  }
  return c;
}

int main(int argc, char **argv) {
  run_config cfg = parse_args(argc, argv);
  dt_device dev;
  switch (cfg.accel) {
  case ACCEL_HOST:
    dev = dt_cpu();
    break;
  case ACCEL_SIM0:
    dev = dt_sim(0);
    break;
  case ACCEL_SIM1:
    dev = dt_sim(1);
    break;
  default:
    return 2;
  }
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){2, 2});
  for (int e = 0; e < cfg.epochs; e++) {
    dt_tensor *x = dt_randn(dev, (uint64_t)e, 2, (const int64_t[]){3, 2});
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *s = dt_mean(y);
    float v;
    dt_read_floats(s, &v, 1);
    printf("epoch %d mean %f\n", e, (double)v);
    dt_free(s);
    dt_free(y);
    dt_free(x);
  }
  dt_free(w);
  return 0;
}
