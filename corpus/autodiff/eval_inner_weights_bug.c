// provenance: blind round field3
// Evaluation switches autodiff off by running on the inner weights, but the validation batch
// comes from the same loader as training, which makes batches on the model's (autodiff) device.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *w, *b; } linear;
static dt_tensor *load_batch(const linear *m, uint64_t seed) {
  return dt_randn(m->dev, seed, 2, (const int64_t[]){5, 3});
}
static float evaluate(const linear *m) {
  dt_tensor *w = dt_inner(m->w), *b = dt_inner(m->b);
  dt_tensor *x = load_batch(m, 99);
  dt_tensor *z = dt_matmul(x, w); // expect-error: autodiff-expected
  dt_tensor *y = dt_add(z, b);
  dt_tensor *s = dt_mean(y);
  float v = 0; dt_read_floats(s, &v, 1);
  return v;
}
int main(void) {
  linear m;
  m.dev = dt_autodiff(dt_sim(0));
  m.w = dt_require_grad(dt_randn(m.dev, 1, 2, (const int64_t[]){3, 2}));
  m.b = dt_require_grad(dt_zeros(m.dev, DT_FLOAT, 1, (const int64_t[]){2}));
  for (int e = 0; e < 2; e++) {
    dt_tensor *x = load_batch(&m, (uint64_t)e);
    dt_tensor *l = dt_mean(dt_add(dt_matmul(x, m.w), m.b));
    dt_backward(l);
  }
  printf("%f\n", evaluate(&m));
  return 0;
}
