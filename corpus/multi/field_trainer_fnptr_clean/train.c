// train.c — generic trainer driving the model through its function pointers on autodiff<sim:1>.
#include "model.h"
#include <stdio.h>
int main(void) {
  model m;
  linear_model(&m);
  dt_device ad = dt_autodiff(dt_sim(1));
  m.init(&m, ad);
  dt_tensor *x = dt_from_floats(ad, (const float[]){1, 0, 0, 1, 1, 1}, 2, (const int64_t[]){3, 2});
  dt_tensor *y = dt_from_floats(ad, (const float[]){1, 2, 3}, 2, (const int64_t[]){3, 1});
  float l = 0, l0 = 0;
  for (int it = 0; it < 100; it++) {
    dt_tensor *p = m.forward(&m, x);
    dt_tensor *loss = dt_mse_loss(p, y);
    dt_backward(loss);
    dt_read_floats(loss, &l, 1);
    if (it == 0) l0 = l;
    dt_tensor *g = dt_grad(m.w), *in = dt_inner(m.w);
    dt_tensor *s = dt_mul_scalar(g, 0.2f);
    dt_tensor *nw = dt_sub(in, s);
    dt_free(m.w);
    m.w = dt_require_grad(dt_from_inner(m.dev, nw));
    dt_free(p); dt_free(loss); dt_free(g); dt_free(in); dt_free(s); dt_free(nw);
  }
  printf("loss %.4f -> %.4f\n", l0, l);
  return l < 0.01f ? 0 : 1;
}
