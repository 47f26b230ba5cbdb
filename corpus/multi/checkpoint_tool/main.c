// corpus/multi/checkpoint_tool/main.c — trains two parameters on autodiff<sim:0>, checkpoints
// them, restores them on autodiff<sim:1> (or autodiff<cuda:0> when a GPU is present) and
// continues there. Clean: every crossing uses dt_inner / dt_from_inner on the right devices.
#include <stdio.h>

#include "checkpoint.h"

static float step(dt_tensor *w1, dt_tensor *w2, dt_device dev) {
  dt_tensor *x = dt_randn(dev, 7, 2, (const int64_t[]){4, 3});
  dt_tensor *h = dt_matmul(x, w1);
  dt_tensor *y = dt_matmul(h, w2);
  dt_tensor *loss = dt_mean(y);
  dt_backward(loss);
  float v = 0;
  dt_read_floats(loss, &v, 1);
  dt_free(loss);
  dt_free(y);
  dt_free(h);
  dt_free(x);
  return v;
}

int main(void) {
  dt_device first = dt_autodiff(dt_sim(0));
  dt_tensor *params[2];
  params[0] = dt_require_grad(dt_randn(first, 1, 2, (const int64_t[]){3, 4}));
  params[1] = dt_require_grad(dt_randn(first, 2, 2, (const int64_t[]){4, 1}));
  printf("before: %f\n", (double)step(params[0], params[1], first));

  checkpoint c;
  if (checkpoint_save(&c, params, 2) != 0) return 1;
  dt_device second = dt_backend_available(DT_BACKEND_CUDA) ? dt_autodiff(dt_cuda(0))
                                                           : dt_autodiff(dt_sim(1));
  dt_tensor *restored[2];
  checkpoint_restore(&c, second, restored);
  printf("after:  %f\n", (double)step(restored[0], restored[1], second));

  checkpoint_free(&c);
  for (int i = 0; i < 2; i++) {
    dt_free(restored[i]);
    dt_free(params[i]);
  }
  return 0;
}
