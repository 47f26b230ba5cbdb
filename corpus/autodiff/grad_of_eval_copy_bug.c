// corpus/autodiff/grad_of_eval_copy_bug.c — gradient logging reads the gradient of the plain
// evaluation copy of the weights instead of the tracked weights.
// Bug: dt_grad of a plain tensor (autodiff-expected).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 2}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){3, 2});
  dt_tensor *out = dt_matmul(x, w);
  dt_tensor *loss = dt_mean(out);
  dt_backward(loss);

  dt_tensor *eval_w = dt_inner(w); /* plain copy for the eval loop */
  dt_tensor *g = dt_grad(eval_w); // expect-error: autodiff-expected
  printf("grad %lld\n", (long long)(g ? dt_numel(g) : 0));
  return 0;
}
