// corpus/autodiff/backward_on_eval_loss_bug.c — the loss helper moves predictions and targets
// to the plain inner device "for numerical stability" before computing the loss, so the loss
// it returns is a plain tensor. Bug: dt_backward of a plain tensor (autodiff-expected).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *stable_loss(const dt_tensor *pred, const dt_tensor *target) {
  dt_tensor *p = dt_inner(pred);
  dt_tensor *t = dt_inner(target);
  dt_tensor *l = dt_mse_loss(p, t);
  dt_free(t);
  dt_free(p);
  return l;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 2}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){3, 2});
  dt_tensor *target = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *pred = dt_matmul(x, w);
  dt_tensor *loss = stable_loss(pred, target);
  dt_backward(loss); // expect-error: autodiff-expected
  dt_free(loss);
  dt_free(pred);
  dt_free(target);
  dt_free(x);
  dt_free(w);
  return 0;
}
