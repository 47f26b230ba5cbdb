// provenance: blind round field5
// Int labels are loaded on the model's (autodiff) device, but the classes are computed on the
// plain evaluation path: int - int with different autodiff-ness: autodiff-expected.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; dt_tensor *w; } model;

int main(void) {
  model m;
  m.dev = dt_autodiff(dt_cpu());
  m.w = dt_require_grad(dt_full(m.dev, 0.25f, 2, (const int64_t[]){2, 1}));
  int64_t lab[3] = {0, 1, 1};
  dt_tensor *labels = dt_from_ints(m.dev, lab, 2, (const int64_t[]){3, 1});
  dt_tensor *wi = dt_inner(m.w);
  dt_tensor *x = dt_full(dt_inner_device(m.dev), 1.0f, 2, (const int64_t[]){3, 2});
  dt_tensor *score = dt_matmul(x, wi);
  dt_tensor *thr = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *pos = dt_greater(score, thr);
  dt_tensor *one = dt_ones(dt_cpu(), DT_INT, 1, (const int64_t[]){1});
  dt_tensor *zero = dt_zeros(dt_cpu(), DT_INT, 1, (const int64_t[]){1});
  dt_tensor *cls = dt_where(pos, one, zero);
  dt_tensor *err = dt_sub(cls, labels); // expect-error: autodiff-expected
  dt_free(err); dt_free(cls); dt_free(zero); dt_free(one); dt_free(pos); dt_free(thr);
  dt_free(score); dt_free(x); dt_free(wi); dt_free(labels); dt_free(m.w);
  puts("ok");
  return 0;
}
