// provenance: blind round field2
// DT_ERRORS_RETURN with NULL checks and goto cleanup; the target is on the host, preds on sim.
// run-errors: return
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *w; } model;
static int model_init(model *m, dt_device d) {
  m->dev = d;
  m->w = dt_randn(d, 1, 2, (const int64_t[]){3, 1});
  return m->w ? 0 : -1;
}
static int eval_step(const model *m, float *out) {
  int rc = -1;
  dt_tensor *x = NULL, *p = NULL, *y = NULL, *l = NULL;
  x = dt_ones(m->dev, DT_FLOAT, 2, (const int64_t[]){5, 3});
  if (!x) goto cleanup;
  p = dt_matmul(x, m->w);
  if (!p) goto cleanup;
  y = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){5, 1});
  if (!y) goto cleanup;
  l = dt_mse_loss(p, y); // expect-error: backend-mismatch
  if (!l) goto cleanup;
  rc = dt_read_floats(l, out, 1);
cleanup:
  if (rc) fprintf(stderr, "%s\n", dt_last_error());
  dt_free(l); dt_free(y); dt_free(p); dt_free(x);
  return rc;
}
int main(void) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  model m;
  if (model_init(&m, dt_sim(0))) return 1;
  float v = 0;
  if (eval_step(&m, &v)) return 0;
  printf("%f\n", v);
  return 0;
}
