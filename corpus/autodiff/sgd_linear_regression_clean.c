// corpus/autodiff/sgd_linear_regression_clean.c — linear regression trained with autodiff on
// autodiff<cpu>: forward, mse loss, backward, then a plain-tensor SGD update through
// dt_inner / dt_grad and a fresh tracked leaf with dt_from_inner + dt_require_grad. Clean: the
// update mixes only plain tensors on the inner device.
#include <stdio.h>

#include <dt/dt.h>

#define N 8

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  float xs[N * 2], ys[N];
  for (int i = 0; i < N; i++) {
    xs[2 * i] = (float)i / N;
    xs[2 * i + 1] = 1.0f;
    ys[i] = 3.0f * xs[2 * i] - 0.5f;
  }
  dt_tensor *x = dt_from_floats(ad, xs, 2, (const int64_t[]){N, 2});
  dt_tensor *y = dt_from_floats(ad, ys, 2, (const int64_t[]){N, 1});
  dt_tensor *w = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){2, 1}));

  float loss_v = 0;
  for (int epoch = 0; epoch < 50; epoch++) {
    dt_tensor *pred = dt_matmul(x, w);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    dt_read_floats(loss, &loss_v, 1);

    dt_tensor *g = dt_grad(w);
    dt_tensor *w_plain = dt_inner(w);
    dt_tensor *step = dt_mul_scalar(g, 0.5f);
    dt_tensor *w_next = dt_sub(w_plain, step);
    dt_tensor *w_new = dt_require_grad(dt_from_inner(ad, w_next));

    dt_free(w);
    w = w_new;
    dt_free(w_next);
    dt_free(step);
    dt_free(w_plain);
    dt_free(g);
    dt_free(loss);
    dt_free(pred);
  }
  float wv[2];
  dt_read_floats(w, wv, 2);
  printf("loss %f, w = (%f, %f)\n", (double)loss_v, (double)wv[0], (double)wv[1]);
  dt_free(w);
  dt_free(y);
  dt_free(x);
  return 0;
}
