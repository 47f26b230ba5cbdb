// provenance: blind round field4
// Recursive residual tower: block k runs on sim:(k % 2) and moves its input there first; the
// recursion returns to the caller's device before the residual add. Clean.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *tower(dt_tensor *x, int depth, dt_tensor *const *w) {
  if (depth == 0) return dt_mul_scalar(x, 1.0f);
  dt_device here = dt_sim(depth % 2);
  dt_tensor *xi = dt_to_device(x, here);
  dt_tensor *h = dt_matmul(xi, w[depth - 1]);
  dt_tensor *inner = tower(h, depth - 1, w);
  dt_tensor *back = dt_to_device(inner, here);
  dt_tensor *y = dt_add(back, xi);
  dt_tensor *out = dt_to_device(y, dt_device_of(x));
  dt_free(xi); dt_free(h); dt_free(inner); dt_free(back); dt_free(y);
  return out;
}

int main(void) {
  dt_tensor *w[4];
  for (int i = 0; i < 4; i++) w[i] = dt_randn(dt_sim((i + 1) % 2), (uint64_t)i, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_randn(dt_cpu(), 9, 2, (const int64_t[]){2, 3});
  dt_tensor *y = tower(x, 4, w);
  dt_tensor *z = dt_add(y, x);
  float out[6];
  dt_read_floats(z, out, 6);
  printf("%.3f\n", (double)out[0]);
  return 0;
}
