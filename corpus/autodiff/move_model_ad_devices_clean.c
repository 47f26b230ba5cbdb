// provenance: blind round field4
// Moving an autodiff model from autodiff<cpu> to autodiff<sim:1> with dt_to_device (the graph
// follows), then training there. Plain checkpoints go through dt_inner. Clean.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; dt_tensor *w1, *w2; } mlp;

static void mlp_to(mlp *m, dt_device d) {
  dt_tensor *a = dt_to_device(m->w1, d);
  dt_tensor *b = dt_to_device(m->w2, d);
  dt_free(m->w1); dt_free(m->w2);
  m->w1 = dt_require_grad(a);
  m->w2 = dt_require_grad(b);
  m->dev = d;
}

static float step(mlp *m, uint64_t seed) {
  dt_tensor *x = dt_randn(m->dev, seed, 2, (const int64_t[]){2, 3});
  dt_tensor *h = dt_tanh(dt_matmul(x, m->w1));
  dt_tensor *y = dt_matmul(h, m->w2);
  dt_tensor *l = dt_mean(y);
  dt_backward(l);
  float v = 0;
  dt_read_floats(l, &v, 1);
  dt_free(x); dt_free(h); dt_free(y); dt_free(l);
  return v;
}

static dt_tensor *checkpoint(const mlp *m) {
  dt_tensor *wi = dt_inner(m->w1);
  dt_tensor *host = dt_to_device(wi, dt_cpu());
  dt_free(wi);
  return host;
}

int main(void) {
  mlp m;
  m.dev = dt_autodiff(dt_cpu());
  m.w1 = dt_require_grad(dt_randn(m.dev, 1, 2, (const int64_t[]){3, 4}));
  m.w2 = dt_require_grad(dt_randn(m.dev, 2, 2, (const int64_t[]){4, 1}));
  printf("%.3f\n", (double)step(&m, 10));
  mlp_to(&m, dt_autodiff(dt_sim(1)));
  printf("%.3f\n", (double)step(&m, 11));
  dt_tensor *ck = checkpoint(&m);
  printf("%lld\n", (long long)dt_numel(ck));
  return 0;
}
