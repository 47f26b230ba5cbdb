// provenance: blind round field3
// Optimizer chosen by name from a table of function pointers; each update works on plain
// inner tensors of its own parameter. Momentum buffers are made from dt_device_of(grad).
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
typedef struct { dt_tensor *w, *mom; } param;
typedef dt_tensor *(*update_fn)(param *, const dt_tensor *);
static dt_tensor *sgd(param *p, const dt_tensor *g) {
  dt_tensor *wi = dt_inner(p->w), *s = dt_mul_scalar(g, 0.1f);
  dt_tensor *n = dt_sub(wi, s);
  dt_free(wi); dt_free(s);
  return n;
}
static dt_tensor *momentum(param *p, const dt_tensor *g) {
  if (!p->mom) p->mom = dt_zeros(dt_device_of(g), DT_FLOAT, 2, (const int64_t[]){3, 1});
  dt_tensor *m = dt_add(dt_mul_scalar(p->mom, 0.9f), g);
  dt_free(p->mom); p->mom = m;
  dt_tensor *wi = dt_inner(p->w), *s = dt_mul_scalar(m, 0.1f);
  dt_tensor *n = dt_sub(wi, s);
  dt_free(wi); dt_free(s);
  return n;
}
static const struct { const char *name; update_fn fn; } OPT[] = {{"sgd", sgd}, {"momentum", momentum}};
int main(int argc, char **argv) {
  update_fn upd = sgd;
  for (size_t i = 0; i < sizeof OPT / sizeof OPT[0]; i++)
    if (argc > 1 && strcmp(argv[1], OPT[i].name) == 0) upd = OPT[i].fn;
  dt_device ad = dt_autodiff(dt_cpu());
  param p = {dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 1})), NULL};
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){5, 3});
  for (int s = 0; s < 3; s++) {
    dt_tensor *l = dt_mean(dt_matmul(x, p.w));
    dt_backward(l);
    dt_tensor *g = dt_grad(p.w);
    dt_tensor *nw = upd(&p, g);
    p.w = dt_require_grad(dt_from_inner(ad, nw));
    dt_free(l); dt_free(g);
  }
  printf("%lld\n", (long long)dt_numel(p.w));
  return 0;
}
