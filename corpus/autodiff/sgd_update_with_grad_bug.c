// corpus/autodiff/sgd_update_with_grad_bug.c — the most common autodiff mistake: the SGD step
// subtracts the gradient (a plain tensor on the inner device) straight from the tracked weight.
// Bug: dt_sub of autodiff<sim:0> and plain sim:0 operands (autodiff-expected).
#include <stdio.h>

#include <dt/dt.h>

typedef struct regressor {
  dt_tensor *w;
  dt_device dev;
} regressor;

static void sgd_step(regressor *r, float lr) {
  dt_tensor *g = dt_grad(r->w);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *w_new = dt_sub(r->w, step); // expect-error: autodiff-expected
  dt_free(r->w);
  r->w = dt_require_grad(w_new);
  dt_free(step);
  dt_free(g);
}

int main(void) {
  regressor r;
  r.dev = dt_autodiff(dt_sim(0));
  r.w = dt_require_grad(dt_randn(r.dev, 1, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_randn(r.dev, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dt_zeros(r.dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *pred = dt_matmul(x, r.w);
  dt_tensor *loss = dt_mse_loss(pred, y);
  dt_backward(loss);
  sgd_step(&r, 0.1f);
  dt_free(loss);
  dt_free(pred);
  dt_free(y);
  dt_free(x);
  dt_free(r.w);
  return 0;
}
