// provenance: blind round field4
// Global-norm gradient clipping: the norm is read back to the host correctly, but the clip
// factor is materialised as a tensor on the autodiff device and multiplied into the plain grad.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>

static float grad_sq_norm(dt_tensor *const *grads, int n) {
  float total = 0;
  for (int i = 0; i < n; i++) {
    dt_tensor *sq = dt_mul(grads[i], grads[i]);
    dt_tensor *s = dt_sum(sq);
    float v = 0;
    dt_read_floats(s, &v, 1);
    total += v;
    dt_free(sq); dt_free(s);
  }
  return total;
}

static void clip_grads(dt_device ad, dt_tensor **grads, int n, float max_norm) {
  float norm = sqrtf(grad_sq_norm(grads, n));
  float factor = norm > max_norm ? max_norm / norm : 1.0f;
  dt_tensor *f = dt_full(ad, factor, 0, NULL);
  for (int i = 0; i < n; i++) {
    dt_tensor *c = dt_mul(grads[i], f); // expect-error: autodiff-expected
    dt_free(grads[i]);
    grads[i] = c;
  }
  dt_free(f);
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w1 = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 3}));
  dt_tensor *w2 = dt_require_grad(dt_randn(ad, 2, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_randn(ad, 3, 2, (const int64_t[]){4, 3});
  dt_tensor *h = dt_relu(dt_matmul(x, w1));
  dt_tensor *y = dt_matmul(h, w2);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  dt_tensor *g[2] = { dt_grad(w1), dt_grad(w2) };
  clip_grads(ad, g, 2, 0.5f);
  printf("%lld\n", (long long)dt_numel(g[0]));
  return 0;
}
