// corpus/training/logistic_regression_cpu_clean.c — binary logistic regression on the host with
// autodiff<cpu>: int labels for accuracy, float targets for the loss, predictions thresholded
// with dt_greater (bool) and turned into int ids with dt_where. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define N 6

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_device host = dt_inner_device(ad);
  static const float xs[N * 2] = {0.1f, 1, 0.4f, 1, 0.35f, 1, 0.8f, 1, 0.9f, 1, 0.7f, 1};
  static const float ys[N] = {0, 0, 0, 1, 1, 1};
  static const int64_t labels_host[N] = {0, 0, 0, 1, 1, 1};
  dt_tensor *x = dt_from_floats(ad, xs, 2, (const int64_t[]){N, 2});
  dt_tensor *y = dt_from_floats(ad, ys, 2, (const int64_t[]){N, 1});
  dt_tensor *labels = dt_from_ints(host, labels_host, 2, (const int64_t[]){N, 1});
  dt_tensor *w = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){2, 1}));

  for (int it = 0; it < 30; it++) {
    dt_tensor *z = dt_matmul(x, w);
    dt_tensor *p = dt_sigmoid(z);
    dt_tensor *loss = dt_mse_loss(p, y);
    dt_backward(loss);
    dt_tensor *g = dt_grad(w);
    dt_tensor *plain = dt_inner(w);
    dt_tensor *st = dt_mul_scalar(g, 2.0f);
    dt_tensor *nx = dt_sub(plain, st);
    dt_tensor *fresh = dt_require_grad(dt_from_inner(ad, nx));
    dt_free(w);
    w = fresh;
    dt_tensor *tmp[] = {nx, st, plain, g, loss, p, z};
    for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  }

  dt_tensor *wp = dt_inner(w);
  dt_tensor *xp = dt_inner(x);
  dt_tensor *z = dt_matmul(xp, wp);
  dt_tensor *p = dt_sigmoid(z);
  dt_tensor *half = dt_full(host, 0.5f, 2, (const int64_t[]){N, 1});
  dt_tensor *pos = dt_greater(p, half);
  dt_tensor *one = dt_ones(host, DT_INT, 2, (const int64_t[]){N, 1});
  dt_tensor *zero = dt_zeros(host, DT_INT, 2, (const int64_t[]){N, 1});
  dt_tensor *pred = dt_where(pos, one, zero);
  dt_tensor *wrong_hi = dt_greater(pred, labels);
  dt_tensor *wrong_lo = dt_greater(labels, pred);
  dt_tensor *e1 = dt_where(wrong_hi, one, zero);
  dt_tensor *e2 = dt_where(wrong_lo, one, e1);
  dt_tensor *n_wrong = dt_sum(e2);
  int64_t nw = 0;
  dt_read_ints(n_wrong, &nw, 1);
  printf("training errors: %lld of %d\n", (long long)nw, N);
  dt_tensor *all[] = {n_wrong, e2, e1, wrong_lo, wrong_hi, pred, zero, one, pos, half, p, z,
                      xp, wp, w, labels, y, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
