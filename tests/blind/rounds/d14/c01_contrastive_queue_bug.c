// Momentum-contrast (MoCo-style) pretraining: a query tower trained on autodiff<sim:0>,
// a momentum key tower kept plain on sim:1, and a bank of negative keys on the query side.
// run-args: 5 3
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define IN 6
#define HID 10
#define EMB 8
#define BATCH 4
#define BANK 12

typedef struct Tower {
  dt_tensor *w1, *w2;
} Tower;

typedef struct KeyBank {
  dt_tensor *bank; /* [BANK, EMB], plain, on the query tower's inner device */
  dt_tensor *keep; /* [BANK, BANK+BATCH] selection: newest keys first, oldest dropped */
  int filled;
} KeyBank;

typedef struct Views {
  float q[BATCH * IN], k[BATCH * IN];
} Views;

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static float frand(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)((rng_state >> 40) & 0xffff) / 65536.0f - 0.5f;
}

/* two augmentations of the same samples: jitter plus a feature drop on the key view */
static void next_views(Views *v, int step) {
  for (int i = 0; i < BATCH * IN; i++) {
    float base = (float)((i * 7 + step * 3) % 11) / 11.0f;
    v->q[i] = base + 0.1f * frand();
    v->k[i] = (i % IN == step % IN) ? 0.0f : base + 0.1f * frand();
  }
}

static void tower_init(Tower *t, dt_device d, uint64_t seed) {
  int64_t s1[2] = {IN, HID}, s2[2] = {HID, EMB};
  t->w1 = dt_mul_scalar(dt_randn(d, seed, 2, s1), 0.3f);
  t->w2 = dt_mul_scalar(dt_randn(d, seed + 1, 2, s2), 0.3f);
}

static Tower tower_track(const Tower *plain, dt_device ad) {
  Tower t;
  t.w1 = dt_require_grad(dt_from_inner(ad, plain->w1));
  t.w2 = dt_require_grad(dt_from_inner(ad, plain->w2));
  return t;
}

static dt_tensor *encode(const Tower *t, dt_tensor *x) {
  dt_tensor *h = dt_tanh(dt_matmul(x, t->w1));
  dt_tensor *e = dt_matmul(h, t->w2);
  dt_free(h);
  return e;
}

static void bank_init(KeyBank *kb, dt_device d) {
  int64_t s[2] = {BANK, EMB}, ks[2] = {BANK, BANK + BATCH};
  float sel[BANK * (BANK + BATCH)];
  for (int r = 0; r < BANK; r++)
    for (int c = 0; c < BANK + BATCH; c++) sel[r * (BANK + BATCH) + c] = (r == c) ? 1.0f : 0.0f;
  kb->bank = dt_mul_scalar(dt_randn(d, 77, 2, s), 0.1f);
  kb->keep = dt_from_floats(d, sel, 2, ks);
  kb->filled = 0;
}

/* push the newest keys in front, drop the oldest BATCH rows */
static void bank_push(KeyBank *kb, dt_tensor *keys) {
  dt_tensor *parts[2] = {keys, kb->bank};
  dt_tensor *full = dt_cat(2, parts, 0); // expect-error: device-mismatch
  dt_tensor *next = dt_matmul(kb->keep, full);
  dt_free(full);
  dt_free(kb->bank);
  kb->bank = next;
  kb->filled = kb->filled + BATCH > BANK ? BANK : kb->filled + BATCH;
}

/* InfoNCE surrogate: softplus(neg - pos), averaged */
static dt_tensor *contrastive_loss(dt_tensor *q, dt_tensor *k_tracked, dt_tensor *bank_tracked) {
  int64_t col[2] = {BATCH, 1};
  dt_tensor *pos = dt_reshape(dt_sum_dim(dt_mul(q, k_tracked), 1), 2, col);
  dt_tensor *neg = dt_matmul(q, dt_transpose(bank_tracked));
  dt_tensor *margin = dt_mul_scalar(dt_sub(neg, pos), 1.0f / 0.2f);
  dt_tensor *sp = dt_log(dt_add_scalar(dt_exp(margin), 1.0f));
  dt_tensor *loss = dt_mean(sp);
  dt_free(pos); dt_free(neg); dt_free(margin); dt_free(sp);
  return loss;
}

static void sgd_apply(dt_tensor **plain, dt_tensor *tracked, float lr) {
  dt_tensor *g = dt_grad(tracked);
  if (!g) return;
  dt_tensor *upd = dt_sub(*plain, dt_mul_scalar(g, lr));
  dt_free(*plain);
  *plain = upd;
  dt_free(g);
}

static void momentum_update(Tower *key, const Tower *query, float m) {
  dt_device kd = dt_device_of(key->w1);
  dt_tensor *q1 = dt_to_device(query->w1, kd), *q2 = dt_to_device(query->w2, kd);
  dt_tensor *n1 = dt_add(dt_mul_scalar(key->w1, m), dt_mul_scalar(q1, 1.0f - m));
  dt_tensor *n2 = dt_add(dt_mul_scalar(key->w2, m), dt_mul_scalar(q2, 1.0f - m));
  dt_free(key->w1); dt_free(key->w2); dt_free(q1); dt_free(q2);
  key->w1 = n1; key->w2 = n2;
}

static float train_step(Tower *qp, Tower *kp, KeyBank *kb, dt_device ad, int step, float lr) {
  Views v;
  int64_t xs[2] = {BATCH, IN};
  next_views(&v, step);
  dt_device qdev = dt_inner_device(ad), kdev = dt_device_of(kp->w1);
  Tower qt = tower_track(qp, ad);
  dt_tensor *xq = dt_from_floats(ad, v.q, 2, xs);
  dt_tensor *xk = dt_from_floats(kdev, v.k, 2, xs);
  dt_tensor *q = encode(&qt, xq);
  dt_tensor *k = encode(kp, xk); /* plain, sim:1: no graph through the key tower */
  dt_tensor *k_local = dt_to_device(k, qdev);
  dt_tensor *loss = contrastive_loss(q, dt_from_inner(ad, k_local), dt_from_inner(ad, kb->bank));
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  sgd_apply(&qp->w1, qt.w1, lr);
  sgd_apply(&qp->w2, qt.w2, lr);
  momentum_update(kp, qp, 0.9f);
  bank_push(kb, k);
  dt_free(xq); dt_free(xk); dt_free(q); dt_free(k); dt_free(loss);
  return lv;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  int warm = argc > 2 ? atoi(argv[2]) : 2;
  if (steps < 1) steps = 1;
  dt_device ad = dt_autodiff(dt_sim(0));
  Tower query, key;
  KeyBank kb;
  tower_init(&query, dt_inner_device(ad), 11);
  tower_init(&key, dt_sim(1), 11);
  bank_init(&kb, dt_inner_device(ad));
  for (int s = 0; s < steps; s++) {
    float lr = s < warm ? 0.05f * (float)(s + 1) / (float)warm : 0.05f;
    float l = train_step(&query, &key, &kb, ad, s, lr);
    printf("step %d lr %.3f loss %.4f bank %d\n", s, lr, l, kb.filled);
  }
  dt_free(query.w1); dt_free(query.w2); dt_free(key.w1); dt_free(key.w2);
  dt_free(kb.bank); dt_free(kb.keep);
  return 0;
}
