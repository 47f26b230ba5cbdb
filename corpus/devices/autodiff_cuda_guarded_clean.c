// corpus/devices/autodiff_cuda_guarded_clean.c — training on autodiff<cuda:0> when a GPU is
// present and on autodiff<sim:1> otherwise; checked with `--unavailable cuda`, so the cuda
// branch is dead for the analyzer, and still clean. Checkpoints go to the host via dt_inner.
// tagcheck-args: --unavailable cuda
#include <stdio.h>

#include <dt/dt.h>

static dt_device pick_training_device(void) {
  if (dt_backend_available(DT_BACKEND_CUDA)) return dt_autodiff(dt_cuda(0));
  return dt_autodiff(dt_sim(1));
}

int main(void) {
  dt_device train = pick_training_device();
  dt_tensor *w = dt_require_grad(dt_randn(train, 1, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_randn(train, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *t = dt_zeros(train, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *loss = dt_mse_loss(p, t);
  dt_backward(loss);
  dt_tensor *plain = dt_inner(w);
  dt_tensor *host = dt_to_device(plain, dt_cpu());
  float saved[3];
  dt_read_floats(host, saved, 3);
  printf("saved %f %f %f\n", (double)saved[0], (double)saved[1], (double)saved[2]);
  dt_tensor *all[] = {host, plain, loss, p, t, x, w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
