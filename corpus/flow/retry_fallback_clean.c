// provenance: blind round field2
// Return-mode allocation with fallback: if the accelerator allocation fails, fall back to host
// and remember the device actually used.
// run-if: cuda
// (without a GPU the first allocation fails: handled, but the runtime records the failure)
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *w; } model;
static int model_alloc(model *m, dt_device want) {
  m->dev = want;
  m->w = dt_randn(m->dev, 1, 2, (const int64_t[]){3, 3});
  if (!m->w) {
    m->dev = dt_cpu();
    m->w = dt_randn(m->dev, 1, 2, (const int64_t[]){3, 3});
  }
  return m->w ? 0 : -1;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_set_error_mode(DT_ERRORS_RETURN);
  model m;
  if (model_alloc(&m, argc > 1 ? dt_sim(0) : dt_cuda(0))) return 1;
  dt_tensor *x = dt_ones(m.dev, DT_FLOAT, 2, (const int64_t[]){1, 3});
  dt_tensor *y = dt_matmul(x, m.w);
  float v[3];
  if (!y || dt_read_floats(y, v, 3)) { fprintf(stderr, "%s\n", dt_last_error()); return 1; }
  printf("%f\n", v[0]);
  return 0;
}
