// provenance: blind round field
// Helper with early returns (NULL on bad shapes); the happy path stays on the caller's device.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *normalize(const dt_tensor *x) {
  if (dt_rank(x) != 2) return NULL;
  int64_t n = dt_dim(x, 0);
  if (n == 0) return NULL;
  dt_tensor *s = dt_sum_dim(x, 0);
  dt_tensor *mu = dt_mul_scalar(s, 1.0f / (float)n);
  dt_tensor *c = dt_sub(x, mu);
  dt_free(s); dt_free(mu);
  return c;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *x = dt_from_floats(dev, (const float[]){1, 2, 3, 4}, 2, (const int64_t[]){2, 2});
  dt_tensor *c = normalize(x);
  if (!c) return 1;
  dt_tensor *offset = dt_full(dev, 10.0f, 2, (const int64_t[]){2, 2});
  dt_tensor *y = dt_add(c, offset);
  float v[4];
  dt_read_floats(y, v, 4);
  printf("%.1f %.1f %.1f %.1f (expect 9 9 11 11)\n", v[0], v[1], v[2], v[3]);
  dt_free(x); dt_free(c); dt_free(offset); dt_free(y);
  return v[0] == 9 && v[3] == 11 ? 0 : 1;
}
