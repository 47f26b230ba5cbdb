// train.c — the training loop forgets to move the loader's host batches to sim:0.
#include "loader.h"
#include <stdio.h>
int main(void) {
  float xs[16], ys[8];
  for (int i = 0; i < 8; i++) { xs[2 * i] = (float)i; xs[2 * i + 1] = 1; ys[i] = 2.0f * (float)i + 1; }
  loader ld = { xs, ys, 8, 4, 0 };
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){2, 1});
  dt_tensor *x, *y;
  while (loader_next(&ld, &x, &y)) {
    dt_tensor *p = dt_matmul(x, w); // expect-error: backend-mismatch
    dt_tensor *l = dt_mse_loss(p, y);
    dt_free(p); dt_free(l); dt_free(x); dt_free(y);
  }
  dt_free(w);
  return 0;
}
