// corpus/interproc/loss_callback_clean.c — a generic training loop takes the loss as a
// callback (a user function passed by pointer, chosen from the command line). What comes out
// of the callback has an unknown tag for the analyzer, and nothing may be reported because of
// it; the program is correct. Clean.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

typedef dt_tensor *(*loss_fn)(const dt_tensor *pred, const dt_tensor *target);

static dt_tensor *l2_loss(const dt_tensor *pred, const dt_tensor *target) {
  return dt_mse_loss(pred, target);
}

static dt_tensor *l1ish_loss(const dt_tensor *pred, const dt_tensor *target) {
  dt_tensor *d = dt_sub(pred, target);
  dt_tensor *p = dt_relu(d);
  dt_tensor *n = dt_neg(d);
  dt_tensor *q = dt_relu(n);
  dt_tensor *a = dt_add(p, q);
  dt_tensor *m = dt_mean(a);
  dt_tensor *tmp[] = {d, p, n, q, a};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return m;
}

static float train(dt_device dev, loss_fn loss_of, int steps) {
  dt_tensor *w = dt_require_grad(dt_randn(dev, 1, 2, (const int64_t[]){2, 1}));
  float last = 0;
  for (int s = 0; s < steps; s++) {
    dt_tensor *x = dt_randn(dev, (uint64_t)s, 2, (const int64_t[]){4, 2});
    dt_tensor *t = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
    dt_tensor *p = dt_matmul(x, w);
    dt_tensor *l = loss_of(p, t);
    dt_backward(l);
    dt_tensor *scaled = dt_mul_scalar(l, 1.0f);
    dt_read_floats(scaled, &last, 1);
    dt_free(scaled);
    dt_free(l);
    dt_free(p);
    dt_free(t);
    dt_free(x);
  }
  dt_free(w);
  return last;
}

int main(int argc, char **argv) {
  loss_fn f = (argc > 1 && strcmp(argv[1], "l1") == 0) ? l1ish_loss : l2_loss;
  printf("final loss %f\n", (double)train(dt_autodiff(dt_sim(0)), f, 3));
  return 0;
}
