// corpus/flow/nested_ternary_clean.c — a device chosen by a nested ternary over two flags
// (cuda if asked and present, else sim:1 if asked, else the host), then wrapped in autodiff for
// training and unwrapped with dt_inner_device for evaluation. Clean on every machine and for
// every flag combination.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

static int has_flag(int argc, char **argv, const char *flag) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], flag) == 0) return 1;
  return 0;
}

int main(int argc, char **argv) {
  int want_gpu = has_flag(argc, argv, "--gpu"), want_sim = has_flag(argc, argv, "--sim");
  dt_device base = want_gpu && dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0)
                   : want_sim                                       ? dt_sim(1)
                                                                    : dt_cpu();
  dt_device train = dt_autodiff(base);
  dt_tensor *w = dt_require_grad(dt_randn(train, 1, 2, (const int64_t[]){2, 1}));
  dt_tensor *x = dt_randn(train, 2, 2, (const int64_t[]){5, 2});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *loss = dt_mean(y);
  dt_backward(loss);
  dt_tensor *g = dt_grad(w);
  dt_tensor *eval_x = dt_randn(dt_inner_device(train), 3, 2, (const int64_t[]){1, 2});
  dt_tensor *eval_y = dt_matmul(eval_x, g); /* a gradient is plain, on the inner device */
  printf("eval %lld\n", (long long)dt_numel(eval_y));
  dt_tensor *all[] = {eval_y, eval_x, g, loss, y, x, w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
