// provenance: blind round field4
// Gradient clipping by value and by norm on plain gradients, with a norm helper that is also
// called on the tracked weights through dt_inner. Clean.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>

static float l2(const dt_tensor *t) {
  dt_tensor *sq = dt_mul(t, t);
  dt_tensor *s = dt_sum(sq);
  float v = 0;
  dt_read_floats(s, &v, 1);
  dt_free(sq); dt_free(s);
  return sqrtf(v);
}

static dt_tensor *clip(const dt_tensor *g, float max_norm) {
  float n = l2(g);
  return dt_mul_scalar(g, n > max_norm ? max_norm / n : 1.0f);
}

static dt_tensor *clip_value(const dt_tensor *g, float lim) {
  dt_device d = dt_device_of(g);
  dt_tensor *hi = dt_full(d, lim, 1, (const int64_t[]){dt_dim(g, -1)});
  dt_tensor *over = dt_greater(g, hi);
  dt_tensor *r = dt_where(over, hi, g);
  dt_free(hi); dt_free(over);
  return r;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 2}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){5, 3});
  for (int it = 0; it < 3; it++) {
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *l = dt_mean(dt_mul(y, y));
    dt_backward(l);
    dt_tensor *g = dt_grad(w);
    dt_tensor *c1 = clip(g, 1.0f);
    dt_tensor *c = clip_value(c1, 0.25f);
    dt_tensor *wi = dt_inner(w);
    printf("|w|=%.3f\n", (double)l2(wi));
    dt_tensor *nw = dt_sub(wi, dt_mul_scalar(c, 0.1f));
    dt_free(w);
    w = dt_require_grad(dt_from_inner(ad, nw));
    dt_free(y); dt_free(l); dt_free(g); dt_free(c1); dt_free(c); dt_free(wi); dt_free(nw);
  }
  return 0;
}
