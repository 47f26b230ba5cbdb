// provenance: blind round field2
// A mask computed from tracked predictions selects between plain host targets.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device ad; dt_tensor *w; } clf;
int main(void) {
  clf c = { dt_autodiff(dt_cpu()), NULL };
  c.w = dt_require_grad(dt_randn(c.ad, 1, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_ones(c.ad, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *p = dt_matmul(x, c.w);
  dt_tensor *half = dt_full(c.ad, 0.5f, 1, (const int64_t[]){1});
  dt_tensor *pos = dt_greater(p, half);
  dt_tensor *t1 = dt_ones(dt_inner_device(c.ad), DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *t0 = dt_zeros(dt_inner_device(c.ad), DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *sel = dt_where(pos, t1, t0); // expect-error: autodiff-expected
  printf("%p\n", (void *)sel);
  return 0;
}
