// corpus/training/train_or_eval_mode_clean.c — one script for training and evaluation: the
// `training` flag decides whether the device is wrapped in autodiff, and the same flag guards
// the autodiff-only calls (dt_backward, dt_grad). The calls are only reached when the device is
// autodiff. Clean for both modes (a path-insensitive analysis would warn; it must not).
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  int training = !(argc > 1 && strcmp(argv[1], "--eval") == 0);
  dt_device base = dt_sim(1);
  dt_device dev = training ? dt_autodiff(base) : base;
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 1});
  if (training) dt_require_grad(w);
  dt_tensor *x = dt_randn(dev, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *t = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *loss = dt_mse_loss(p, t);
  if (training) {
    dt_backward(loss);
    dt_tensor *g = dt_grad(w);
    printf("grad %lld\n", (long long)(g ? dt_numel(g) : 0));
    dt_free(g);
  }
  float l = 0;
  dt_read_floats(loss, &l, 1);
  printf("%s loss %f\n", training ? "train" : "eval", (double)l);
  dt_free(loss);
  dt_free(p);
  dt_free(t);
  dt_free(x);
  dt_free(w);
  return 0;
}
