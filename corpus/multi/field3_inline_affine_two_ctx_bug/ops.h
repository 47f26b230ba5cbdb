// A static inline affine helper used by the encoder (all on sim:1) and by the head, whose bias
// lives on the host: the helper fails in the head's calling context only.
#ifndef OPS_H
#define OPS_H
#include <dt/dt.h>
static inline dt_tensor *affine(const dt_tensor *x, const dt_tensor *w, const dt_tensor *b) {
  dt_tensor *z = dt_matmul(x, w);
  dt_tensor *y = dt_add(z, b); // expect-error: backend-mismatch
  dt_free(z);
  return y;
}
dt_tensor *encode(const dt_tensor *x);
dt_tensor *head(const dt_tensor *h);
#endif
