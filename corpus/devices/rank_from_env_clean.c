// provenance: blind round field
// The worker's device ordinal comes from the environment (LOCAL_RANK); used consistently.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const char *r = getenv("LOCAL_RANK");
  int rank = r ? atoi(r) % 2 : 0;
  dt_device dev = dt_autodiff(dt_sim(rank));
  dt_tensor *w = dt_require_grad(dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 2}));
  dt_tensor *x = dt_full(dev, 3.0f, 2, (const int64_t[]){1, 2});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *l = dt_sum(y);
  dt_backward(l);
  dt_tensor *g = dt_grad(w);
  float gv[4];
  dt_read_floats(g, gv, 4);
  printf("rank %d grad %.1f (expect 3)\n", rank, gv[0]);
  dt_free(w); dt_free(x); dt_free(y); dt_free(l); dt_free(g);
  return gv[0] == 3.0f ? 0 : 1;
}
