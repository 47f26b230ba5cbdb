// provenance: blind round field
// Device picked by a switch over a backend enum from the run configuration (environment).
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { BK_CPU, BK_SIM0, BK_SIM1, BK_CUDA } backend_choice;
typedef struct { backend_choice backend; int autodiff; int batch; } run_config;

static run_config load_config(void) {
  run_config c = { BK_CPU, 1, 4 };
  const char *b = getenv("TRAIN_BACKEND");
  if (b && strcmp(b, "sim0") == 0) c.backend = BK_SIM0;
  else if (b && strcmp(b, "sim1") == 0) c.backend = BK_SIM1;
  else if (b && strcmp(b, "cuda") == 0) c.backend = BK_CUDA;
  return c;
}

static dt_device device_for(const run_config *c) {
  dt_device d;
  switch (c->backend) {
  case BK_SIM0: d = dt_sim(0); break;
  case BK_SIM1: d = dt_sim(1); break;
  case BK_CUDA: d = dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_cpu(); break;
  case BK_CPU:
  default: d = dt_cpu(); break;
  }
  return c->autodiff ? dt_autodiff(d) : d;
}

int main(void) {
  run_config cfg = load_config();
  dt_device dev = device_for(&cfg);
  dt_tensor *w = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *x = dt_full(dev, 2.0f, 2, (const int64_t[]){cfg.batch, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *m = dt_mean(y);
  float v;
  dt_read_floats(m, &v, 1);
  printf("mean %.2f (expect 6)\n", v);
  dt_free(w); dt_free(x); dt_free(y); dt_free(m);
  return v == 6.0f ? 0 : 1;
}
