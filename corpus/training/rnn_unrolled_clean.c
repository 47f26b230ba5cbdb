// corpus/training/rnn_unrolled_clean.c — backpropagation through time: a recurrent state is
// carried across a loop of time steps on autodiff<sim:1> (the state variable is reassigned
// every step), the loss sums the per-step losses, and one backward pass follows. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define H 3
#define STEPS 4

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w_h = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){H, H}));
  dt_tensor *w_x = dt_require_grad(dt_randn(ad, 2, 2, (const int64_t[]){2, H}));
  dt_tensor *h = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){1, H});
  dt_tensor *loss = dt_zeros(ad, DT_FLOAT, 0, NULL);
  for (int t = 0; t < STEPS; t++) {
    dt_tensor *x = dt_randn(ad, 10 + (uint64_t)t, 2, (const int64_t[]){1, 2});
    dt_tensor *a = dt_matmul(h, w_h);
    dt_tensor *b = dt_matmul(x, w_x);
    dt_tensor *s = dt_add(a, b);
    dt_tensor *h_next = dt_tanh(s);
    dt_tensor *target = dt_full(ad, 0.5f, 2, (const int64_t[]){1, H});
    dt_tensor *step_loss = dt_mse_loss(h_next, target);
    dt_tensor *acc = dt_add(loss, step_loss);
    dt_free(loss);
    loss = acc;
    dt_free(h);
    h = h_next;
    dt_free(step_loss);
    dt_free(target);
    dt_free(s);
    dt_free(b);
    dt_free(a);
    dt_free(x);
  }
  dt_backward(loss);
  dt_tensor *gh = dt_grad(w_h);
  dt_tensor *gx = dt_grad(w_x);
  dt_tensor *n1 = dt_sum(gh);
  float v = 0;
  dt_read_floats(n1, &v, 1);
  printf("sum of dL/dW_h: %f\n", (double)v);
  dt_tensor *all[] = {n1, gx, gh, loss, h, w_x, w_h};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
