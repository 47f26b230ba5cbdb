// provenance: blind round field
// Loss computation with goto cleanup; the target comes from sim:1, the predictions from sim:0.
#include <dt/dt.h>
#include <stdio.h>

static int compute_loss(dt_device dev, const float *y, float *out) {
  int rc = -1;
  dt_tensor *w = NULL, *x = NULL, *p = NULL, *t = NULL, *l = NULL;
  if (!(w = dt_full(dev, 0.5f, 2, (const int64_t[]){2, 1}))) goto out;
  if (!(x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){3, 2}))) goto out;
  if (!(p = dt_matmul(x, w))) goto out;
  if (!(t = dt_from_floats(dt_sim(1), y, 2, (const int64_t[]){3, 1}))) goto out;
  if (!(l = dt_mse_loss(p, t))) goto out; // expect-error: device-mismatch
  if (dt_read_floats(l, out, 1) != 0) goto out;
  rc = 0;
out:
  dt_free(w); dt_free(x); dt_free(p); dt_free(t); dt_free(l);
  return rc;
}

int main(void) {
  const float y[3] = {1, 1, 1};
  float l;
  if (compute_loss(dt_sim(0), y, &l) != 0) return 1;
  printf("%f\n", l);
  return 0;
}
