// provenance: blind round field5
// Recursive forward over an autodiff model; the input batch is created on the plain device
// that was used to build the autodiff one: autodiff-expected at the first layer.
#include <dt/dt.h>
#include <stdio.h>

typedef struct net { int n; dt_tensor *w[3]; } net;

static dt_tensor *fwd(const net *m, int i, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w[i]); // expect-error: autodiff-expected
  dt_tensor *a = dt_relu(h);
  dt_free(h);
  if (i + 1 == m->n) return a;
  dt_tensor *r = fwd(m, i + 1, a);
  dt_free(a);
  return r;
}

int main(void) {
  dt_device base = dt_sim(0);
  dt_device ad = dt_autodiff(base);
  net m = { .n = 3 };
  for (int i = 0; i < m.n; i++) m.w[i] = dt_require_grad(dt_randn(ad, (uint64_t)i, 2, (const int64_t[]){4, 4}));
  dt_tensor *x = dt_ones(base, DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *y = fwd(&m, 0, x);
  dt_tensor *loss = dt_mean(y);
  dt_backward(loss);
  dt_free(loss); dt_free(y); dt_free(x);
  for (int i = 0; i < m.n; i++) dt_free(m.w[i]);
  puts("ok");
  return 0;
}
