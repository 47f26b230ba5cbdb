// provenance: blind round field
// Layer construction through out parameters; the second layer is built on the wrong ordinal.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; dt_tensor *b; } dense;

static int dense_new(dense *out, dt_device dev, int64_t in, int64_t n) {
  out->w = dt_full(dev, 0.1f, 2, (const int64_t[]){in, n});
  out->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){n});
  return out->w && out->b ? 0 : -1;
}

static dt_tensor *dense_fwd(const dense *d, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, d->w); // expect-error: device-mismatch
  dt_tensor *y = dt_add(h, d->b);
  dt_free(h);
  return y;
}

int main(void) {
  dense l1, l2;
  dt_device dev = dt_sim(0);
  if (dense_new(&l1, dev, 4, 4) != 0) return 1;
  if (dense_new(&l2, dt_sim(1), 4, 2) != 0) return 1;
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){1, 4});
  dt_tensor *h = dense_fwd(&l1, x);
  dt_tensor *y = dense_fwd(&l2, h);
  printf("%p\n", (void *)y);
  return 0;
}
