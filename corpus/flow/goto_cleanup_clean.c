// corpus/flow/goto_cleanup_clean.c — the classic C `goto done` cleanup path: every allocation
// is checked, failures jump to one cleanup label. The computation itself stays on one device.
// Clean: the jumps to `done` carry NULL or sim:1 tensors, never a mismatch.
#include <stdio.h>

#include <dt/dt.h>

static int evaluate(dt_device dev, float *out) {
  int rc = -1;
  dt_tensor *x = NULL, *w = NULL, *y = NULL, *m = NULL;
  x = dt_randn(dev, 1, 2, (const int64_t[]){4, 3});
  if (!x) goto done;
  w = dt_randn(dev, 2, 2, (const int64_t[]){3, 2});
  if (!w) goto done;
  y = dt_matmul(x, w);
  if (!y) goto done;
  m = dt_mean(y);
  if (!m) goto done;
  if (dt_read_floats(m, out, 1) != 0) goto done;
  rc = 0;
done:
  dt_free(m);
  dt_free(y);
  dt_free(w);
  dt_free(x);
  return rc;
}

int main(void) {
  float v = 0;
  if (evaluate(dt_sim(1), &v) != 0) return 1;
  printf("mean %f\n", (double)v);
  return 0;
}
