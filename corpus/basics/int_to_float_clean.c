// corpus/basics/int_to_float_clean.c — the right way to mix label ids with float scores: the
// int labels stay int (compared, summed, read as ints) and a float one-hot is built on the
// host. Clean: no operation mixes kinds, bool masks only feed dt_where.
#include <stdio.h>

#include <dt/dt.h>

#define N 5

int main(void) {
  dt_device dev = dt_cpu();
  static const int64_t labels[N] = {0, 1, 1, 0, 1};
  static const int64_t preds[N] = {0, 1, 0, 0, 1};
  dt_tensor *y = dt_from_ints(dev, labels, 1, (const int64_t[]){N});
  dt_tensor *yhat = dt_from_ints(dev, preds, 1, (const int64_t[]){N});

  /* correct = (y == yhat) computed as !(y > yhat) && !(yhat > y) with where */
  dt_tensor *ones = dt_ones(dev, DT_INT, 1, (const int64_t[]){N});
  dt_tensor *zeros = dt_zeros(dev, DT_INT, 1, (const int64_t[]){N});
  dt_tensor *over = dt_greater(y, yhat);
  dt_tensor *under = dt_greater(yhat, y);
  dt_tensor *c1 = dt_where(over, zeros, ones);
  dt_tensor *correct = dt_where(under, zeros, c1);
  dt_tensor *n_correct = dt_sum(correct);
  int64_t hits = 0;
  dt_read_ints(n_correct, &hits, 1);

  float onehot[N * 2];
  for (int i = 0; i < N; i++) {
    onehot[2 * i] = labels[i] == 0 ? 1.0f : 0.0f;
    onehot[2 * i + 1] = labels[i] == 1 ? 1.0f : 0.0f;
  }
  dt_tensor *target = dt_from_floats(dev, onehot, 2, (const int64_t[]){N, 2});
  dt_tensor *scores = dt_randn(dev, 9, 2, (const int64_t[]){N, 2});
  dt_tensor *probs = dt_sigmoid(scores);
  dt_tensor *loss = dt_mse_loss(probs, target);
  float l = 0;
  dt_read_floats(loss, &l, 1);
  printf("accuracy %lld/%d, loss %f\n", (long long)hits, N, (double)l);

  dt_tensor *all[] = {y, yhat, ones, zeros, over, under, c1, correct, n_correct, target,
                      scores, probs, loss};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
