// provenance: blind round field2
// SGD update subtracts the plain grad from the tracked weight directly.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_tensor *w, *b; } params;
static void update(dt_tensor **w, float lr) {
  dt_tensor *g = dt_grad(*w);
  dt_tensor *d = dt_mul_scalar(g, lr);
  dt_tensor *nw = dt_sub(*w, d); // expect-error: autodiff-expected
  dt_free(g); dt_free(d);
  *w = nw;
}
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  params p;
  p.w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 1}));
  p.b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){1}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *out = dt_add(dt_matmul(x, p.w), p.b);
  dt_tensor *loss = dt_mean(out);
  dt_backward(loss);
  update(&p.w, 0.01f);
  printf("%p\n", (void *)p.w);
  return 0;
}
