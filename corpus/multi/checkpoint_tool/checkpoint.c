// corpus/multi/checkpoint_tool/checkpoint.c — save: dt_inner, then dt_to_device to the host, then
// dt_read_floats. Restore: dt_from_floats on the plain inner device, then dt_from_inner.
#include "checkpoint.h"

#include <stdlib.h>

int checkpoint_save(checkpoint *c, dt_tensor *const *params, int n) {
  c->n = 0;
  for (int i = 0; i < n && i < CKPT_MAX; i++) {
    dt_tensor *plain = dt_inner(params[i]);
    dt_tensor *host = dt_to_device(plain, dt_cpu());
    c->rows[i] = dt_dim(host, 0);
    c->cols[i] = dt_dim(host, 1);
    c->data[i] = malloc((size_t)(c->rows[i] * c->cols[i]) * sizeof(float));
    int rc = c->data[i] ? dt_read_floats(host, c->data[i], c->rows[i] * c->cols[i]) : -1;
    dt_free(host);
    dt_free(plain);
    if (rc != 0) return -1;
    c->n++;
  }
  return 0;
}

int checkpoint_restore(const checkpoint *c, dt_device ad, dt_tensor **out) {
  dt_device inner_dev = dt_inner_device(ad);
  for (int i = 0; i < c->n; i++) {
    dt_tensor *inner = dt_from_floats(inner_dev, c->data[i], 2, (const int64_t[]){c->rows[i], c->cols[i]});
    out[i] = dt_require_grad(dt_from_inner(ad, inner));
    dt_free(inner);
  }
  return 0;
}

void checkpoint_free(checkpoint *c) {
  for (int i = 0; i < c->n; i++) free(c->data[i]);
  c->n = 0;
}
