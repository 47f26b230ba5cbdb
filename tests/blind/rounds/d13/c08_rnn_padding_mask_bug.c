/* Elman RNN regressor over variable-length sequences.  The collate function pads every batch
 * to its longest sequence and builds a padding mask so that padded time steps do not count in
 * the loss; truncated back-propagation through time over the whole (short) sequence.
 *
 *   env: RNN_DEVICE (cpu|sim0|sim1, default sim0)
 *   usage: c08 [EPOCHS] [BATCHES_PER_EPOCH]
 */
// run-args: 3 5
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 3
#define HS 6
#define BS 4
#define TMAX 7

typedef struct Rnn {
  dt_device ad;
  dt_tensor *wx, *wh, *bh, *wo, *bo;
} Rnn;

typedef struct Batch {
  int T;                 /* padded length */
  int len[BS];           /* true lengths */
  dt_tensor *x[TMAX];    /* [BS, IN] per step */
  dt_tensor *y;          /* [BS, T] targets */
  dt_tensor *mask;       /* [BS, T] 1 = real step, 0 = padding */
} Batch;

static dt_device env_device(void) {
  const char *s = getenv("RNN_DEVICE");
  if (s && !strcmp(s, "cpu")) return dt_cpu();
  if (s && !strcmp(s, "sim1")) return dt_sim(1);
  return dt_sim(0);
}

static dt_tensor *mkparam(dt_device ad, uint64_t seed, int64_t r, int64_t c, float sc) {
  dt_tensor *p;
  if (c > 0) {
    dt_tensor *n = dt_randn(dt_inner_device(ad), seed, 2, (const int64_t[]){r, c});
    dt_tensor *s = dt_mul_scalar(n, sc);
    p = dt_from_inner(ad, s);
    dt_free(n);
    dt_free(s);
  } else {
    p = dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){r});
  }
  return dt_require_grad(p);
}

static void rnn_init(Rnn *m, dt_device dev) {
  m->ad = dt_autodiff(dev);
  m->wx = mkparam(m->ad, 1, IN, HS, 0.5f);
  m->wh = mkparam(m->ad, 2, HS, HS, 0.3f);
  m->bh = mkparam(m->ad, 0, HS, 0, 0.0f);
  m->wo = mkparam(m->ad, 3, HS, 1, 0.5f);
  m->bo = mkparam(m->ad, 0, 1, 0, 0.0f);
}

static dt_tensor **rnn_params(Rnn *m, int i) {
  dt_tensor **all[5] = {&m->wx, &m->wh, &m->bh, &m->wo, &m->bo};
  return all[i];
}

/* Returns predictions [BS, T]. */
static dt_tensor *rnn_forward(const Rnn *m, const Batch *b) {
  dt_tensor *h = dt_zeros(m->ad, DT_FLOAT, 2, (const int64_t[]){BS, HS});
  dt_tensor *outs[TMAX];
  for (int t = 0; t < b->T; t++) {
    dt_tensor *a = dt_matmul(b->x[t], m->wx);
    dt_tensor *r = dt_matmul(h, m->wh);
    dt_tensor *s = dt_add(a, r);
    dt_tensor *sb = dt_add(s, m->bh);
    dt_free(h);
    h = dt_tanh(sb);
    dt_tensor *o = dt_matmul(h, m->wo);
    outs[t] = dt_add(o, m->bo);
    dt_free(a);
    dt_free(r);
    dt_free(s);
    dt_free(sb);
    dt_free(o);
  }
  dt_tensor *pred = dt_cat(b->T, outs, 1);
  for (int t = 0; t < b->T; t++) dt_free(outs[t]);
  dt_free(h);
  return pred;
}

static void collate(Batch *b, dt_device ad, int idx) {
  float y[BS * TMAX], mask[BS * TMAX];
  b->T = 0;
  for (int i = 0; i < BS; i++) {
    b->len[i] = 3 + (idx * 5 + i * 3) % (TMAX - 2);
    if (b->len[i] > b->T) b->T = b->len[i];
  }
  for (int t = 0; t < b->T; t++) {
    float xs[BS * IN];
    for (int i = 0; i < BS; i++)
      for (int c = 0; c < IN; c++)
        xs[i * IN + c] = t < b->len[i] ? sinf(0.4f * (float)(t + idx) + (float)(c * i)) : 0.0f;
    b->x[t] = dt_from_floats(ad, xs, 2, (const int64_t[]){BS, IN});
  }
  for (int i = 0; i < BS; i++)
    for (int t = 0; t < b->T; t++) {
      int real = t < b->len[i];
      y[i * b->T + t] = real ? 0.5f * sinf(0.4f * (float)(t + idx)) : 0.0f;
      mask[i * b->T + t] = real ? 1.0f : 0.0f;
    }
  const int64_t s[2] = {BS, b->T};
  b->y = dt_from_floats(ad, y, 2, s);
  b->mask = dt_from_floats(ad, mask, 2, s);
}

static void batch_free(Batch *b) {
  for (int t = 0; t < b->T; t++) dt_free(b->x[t]);
  dt_free(b->y);
  dt_free(b->mask);
}

static int count_real(const Batch *b) {
  int n = 0;
  for (int i = 0; i < BS; i++) n += b->len[i];
  return n;
}

/* Mean squared error over the real (unpadded) steps only. */
static dt_tensor *masked_mse(const dt_tensor *pred, const Batch *b) {
  dt_tensor *d = dt_sub(pred, b->y);
  dt_tensor *sq = dt_mul(d, d);
  dt_tensor *zero = dt_zeros(dt_device_of(sq), DT_FLOAT, 2, (const int64_t[]){BS, b->T});
  dt_tensor *kept = dt_where(b->mask, sq, zero); // expect-error: kind-mismatch
  dt_tensor *tot = dt_sum(kept);
  dt_tensor *mean = dt_mul_scalar(tot, 1.0f / (float)count_real(b));
  dt_free(d);
  dt_free(sq);
  dt_free(zero);
  dt_free(kept);
  dt_free(tot);
  return mean;
}

static void sgd(Rnn *m, float lr, float clip) {
  for (int i = 0; i < 5; i++) {
    dt_tensor **p = rnn_params(m, i);
    dt_tensor *g = dt_grad(*p);
    if (!g) continue;
    float gv[HS * HS];
    int64_t n = dt_numel(g);
    dt_read_floats(g, gv, n);
    float nn = 0.0f;
    for (int64_t k = 0; k < n; k++) nn += gv[k] * gv[k];
    nn = sqrtf(nn);
    float sc = nn > clip ? clip / nn : 1.0f;
    dt_tensor *in = dt_inner(*p);
    dt_tensor *st = dt_mul_scalar(g, lr * sc);
    dt_tensor *nw = dt_sub(in, st);
    dt_free(*p);
    *p = dt_require_grad(dt_from_inner(m->ad, nw));
    dt_free(g);
    dt_free(in);
    dt_free(st);
    dt_free(nw);
  }
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 4;
  int per_epoch = argc > 2 ? atoi(argv[2]) : 6;
  Rnn m;
  rnn_init(&m, env_device());

  for (int e = 0; e < epochs; e++) {
    float total = 0.0f;
    for (int k = 0; k < per_epoch; k++) {
      Batch b;
      collate(&b, m.ad, e * per_epoch + k);
      dt_tensor *pred = rnn_forward(&m, &b);
      dt_tensor *loss = masked_mse(pred, &b);
      dt_tensor *li = dt_inner(loss);
      float lv = 0.0f;
      if (li && dt_read_floats(li, &lv, 1) == 0) total += lv;
      if (dt_backward(loss) == 0) sgd(&m, 0.1f, 1.0f);
      dt_free(li);
      dt_free(loss);
      dt_free(pred);
      batch_free(&b);
    }
    printf("epoch %d loss %.5f\n", e, total / (float)(per_epoch > 0 ? per_epoch : 1));
  }
  for (int i = 0; i < 5; i++) dt_free(*rnn_params(&m, i));
  return 0;
}
