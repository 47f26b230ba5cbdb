// corpus/multi/loader_on_host_bug/model.c — the scorer. Its matmul receives the loader's batches:
// that is where the host batches (tag from loader.c) meet the sim:0 weights
// (backend-mismatch, reported here with the chain through main.c in the notes).
#include "model.h"

void scorer_init(scorer *s, dt_device dev) {
  s->w = dt_randn(dev, 1, 2, (const int64_t[]){4, 1});
  s->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){1});
}

dt_tensor *scorer_apply(const scorer *s, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, s->w); // expect-error: backend-mismatch
  dt_tensor *y = dt_add(t, s->b);
  dt_free(t);
  return y;
}
