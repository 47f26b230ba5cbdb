#include <stdio.h>
#include "train.h"
int main(void) {
  model m;
  m.ad = dt_autodiff(dt_sim(0));
  m.w = dt_require_grad(dt_randn(m.ad, 1, 2, (const int64_t[]){3, 2}));
  ema e;
  ema_init(&e, &m, dt_sim(1));
  dt_tensor *x = dt_randn(m.ad, 2, 2, (const int64_t[]){4, 3});
  for (int s = 0; s < 3; s++) {
    dt_tensor *l = dt_mean(dt_matmul(x, m.w));
    dt_backward(l);
    dt_tensor *g = dt_grad(m.w), *wi = dt_inner(m.w);
    dt_tensor *nw = dt_sub(wi, dt_mul_scalar(g, 0.1f));
    m.w = dt_require_grad(dt_from_inner(m.ad, nw));
    ema_step(&e, &m, 0.9f);
    dt_free(l); dt_free(g); dt_free(wi);
  }
  dt_tensor *wi = dt_inner(m.w);
  dt_tensor *saved = ckpt_save(wi);
  dt_tensor *back = ckpt_restore(saved, m.ad);
  float a = eval_plain(e.w, e.dev);
  float b = eval_plain(saved, dt_cpu());
  printf("%f %f %lld\n", a, b, (long long)dt_numel(back));
  return 0;
}
