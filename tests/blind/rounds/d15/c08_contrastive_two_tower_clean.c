// blind round d15 — CLIP-style contrastive training of two towers on two devices.
// The image tower trains on autodiff<sim:0>, the text tower on autodiff<sim:1>; a host loader
// produces plain cpu batches, each tower pulls its half onto its own inner device and wraps it.
// The text embeddings are moved to autodiff<sim:0> for the similarity matrix (an autodiff move:
// gradients flow back to sim:1), the learnable temperature lives with the image tower, and
// each tower's SGD step uses its own device from the tower array. Evaluation on the host.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4
#define D_IMG 6
#define D_TXT 5
#define D_EMB 3
#define N_TOWERS 2
#define STEPS 3

typedef struct {
  const char *name;
  dt_device dev; /* autodiff<...> */
  int d_in;
  dt_tensor *proj; /* [d_in, D_EMB] */
  dt_tensor *bias; /* [D_EMB] */
} tower;

typedef struct {
  tower towers[N_TOWERS];
  dt_tensor *log_temp; /* rank 0, on towers[0].dev */
} clip_model;

typedef struct {
  dt_tensor *img; /* [BATCH, D_IMG], plain cpu */
  dt_tensor *txt; /* [BATCH, D_TXT], plain cpu */
} pair_batch;

static dt_tensor *leaf(dt_device ad, uint64_t seed, int rank, const int64_t *shape, float scale) {
  dt_tensor *r = dt_randn(dt_inner_device(ad), seed, rank, shape);
  dt_tensor *s = dt_mul_scalar(r, scale);
  dt_tensor *l = dt_require_grad(dt_from_inner(ad, s));
  dt_free(r);
  dt_free(s);
  return l;
}

static void tower_init(tower *t, const char *name, dt_device ad, int d_in, uint64_t seed) {
  t->name = name;
  t->dev = ad;
  t->d_in = d_in;
  t->proj = leaf(ad, seed, 2, (const int64_t[]){d_in, D_EMB}, 0.5f);
  t->bias = leaf(ad, seed + 1, 1, (const int64_t[]){D_EMB}, 0.1f);
}

static void clip_init(clip_model *m) {
  tower_init(&m->towers[0], "image", dt_autodiff(dt_sim(0)), D_IMG, 31);
  tower_init(&m->towers[1], "text", dt_autodiff(dt_sim(1)), D_TXT, 41);
  dt_tensor *t0 = dt_full(dt_inner_device(m->towers[0].dev), 0.0f, 0, NULL);
  m->log_temp = dt_require_grad(dt_from_inner(m->towers[0].dev, t0));
  dt_free(t0);
}

static pair_batch load_batch(int step) {
  float img[BATCH * D_IMG], txt[BATCH * D_TXT];
  for (int i = 0; i < BATCH; i++) {
    for (int j = 0; j < D_IMG; j++) img[i * D_IMG + j] = (float)((i * 3 + j + step) % 7) / 7.0f;
    for (int j = 0; j < D_TXT; j++) txt[i * D_TXT + j] = (float)((i * 5 + j * 2 + step) % 6) / 6.0f;
  }
  pair_batch b;
  b.img = dt_from_floats(dt_cpu(), img, 2, (const int64_t[]){BATCH, D_IMG});
  b.txt = dt_from_floats(dt_cpu(), txt, 2, (const int64_t[]){BATCH, D_TXT});
  return b;
}

static dt_tensor *l2_normalize_rows(const dt_tensor *x) {
  dt_tensor *sq = dt_mul(x, x);
  dt_tensor *s = dt_sum_dim(sq, 1);
  dt_tensor *s2 = dt_reshape(s, 2, (const int64_t[]){BATCH, 1});
  dt_tensor *eps = dt_add_scalar(s2, 1e-6f);
  dt_tensor *lg = dt_log(eps);
  dt_tensor *half = dt_mul_scalar(lg, -0.5f);
  dt_tensor *inv = dt_exp(half);
  dt_tensor *r = dt_mul(x, inv);
  dt_tensor *tmp[] = {sq, s, s2, eps, lg, half, inv};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return r;
}

/* x_host: plain cpu. Returns normalised embeddings on the tower's autodiff device. */
static dt_tensor *tower_embed(const tower *t, const dt_tensor *x_host) {
  dt_tensor *on_dev = dt_to_device(x_host, dt_inner_device(t->dev));
  dt_tensor *x = dt_from_inner(t->dev, on_dev);
  dt_tensor *a = dt_matmul(x, t->proj);
  dt_tensor *b = dt_add(a, t->bias);
  dt_tensor *e = l2_normalize_rows(b);
  dt_free(on_dev);
  dt_free(x);
  dt_free(a);
  dt_free(b);
  return e;
}

static dt_tensor *row_log_softmax(const dt_tensor *logits) {
  dt_tensor *e = dt_exp(logits);
  dt_tensor *z = dt_sum_dim(e, 1);
  dt_tensor *z2 = dt_reshape(z, 2, (const int64_t[]){BATCH, 1});
  dt_tensor *lz = dt_log(z2);
  dt_tensor *r = dt_sub(logits, lz);
  dt_free(e);
  dt_free(z);
  dt_free(z2);
  dt_free(lz);
  return r;
}

static dt_tensor *eye_like(dt_device ad) {
  float v[BATCH * BATCH];
  for (int i = 0; i < BATCH * BATCH; i++) v[i] = (i / BATCH == i % BATCH) ? 1.0f : 0.0f;
  dt_tensor *p = dt_from_floats(dt_inner_device(ad), v, 2, (const int64_t[]){BATCH, BATCH});
  dt_tensor *e = dt_from_inner(ad, p);
  dt_free(p);
  return e;
}

/* Symmetric InfoNCE on towers[0]'s device. */
static dt_tensor *clip_loss(const clip_model *m, const dt_tensor *zi, const dt_tensor *zt_remote) {
  dt_device home = m->towers[0].dev;
  dt_tensor *zt = dt_to_device(zt_remote, home);
  dt_tensor *ztT = dt_transpose(zt);
  dt_tensor *sim = dt_matmul(zi, ztT);
  dt_tensor *temp = dt_exp(m->log_temp);
  dt_tensor *logits = dt_mul(sim, temp);
  dt_tensor *logitsT = dt_transpose(logits);
  dt_tensor *eye = eye_like(home);
  dt_tensor *lp_i = row_log_softmax(logits);
  dt_tensor *lp_t = row_log_softmax(logitsT);
  dt_tensor *both = dt_add(lp_i, lp_t);
  dt_tensor *diag = dt_mul(both, eye);
  dt_tensor *s = dt_sum(diag);
  dt_tensor *loss = dt_mul_scalar(s, -0.5f / BATCH);
  dt_tensor *tmp[] = {zt, ztT, sim, temp, logits, logitsT, eye, lp_i, lp_t, both, diag, s};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return loss;
}

static void sgd_leaf(dt_tensor **slot, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*slot);
  if (!g) return;
  dt_tensor *w = dt_inner(*slot);
  dt_tensor *d = dt_mul_scalar(g, lr);
  dt_tensor *wn = dt_sub(w, d);
  dt_free(*slot);
  *slot = dt_require_grad(dt_from_inner(ad, wn));
  dt_free(g);
  dt_free(w);
  dt_free(d);
  dt_free(wn);
}

static float train_step(clip_model *m, int step, float lr) {
  pair_batch b = load_batch(step);
  const dt_tensor *inputs[N_TOWERS] = {b.img, b.txt};
  dt_tensor *emb[N_TOWERS];
  for (int k = 0; k < N_TOWERS; k++) emb[k] = tower_embed(&m->towers[k], inputs[k]);
  dt_tensor *loss = clip_loss(m, emb[0], emb[1]);
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  for (int k = 0; k < N_TOWERS; k++) {
    sgd_leaf(&m->towers[k].proj, m->towers[k].dev, lr);
    sgd_leaf(&m->towers[k].bias, m->towers[k].dev, lr);
  }
  sgd_leaf(&m->log_temp, m->towers[0].dev, lr);
  for (int k = 0; k < N_TOWERS; k++) dt_free(emb[k]);
  dt_free(loss);
  dt_free(b.img);
  dt_free(b.txt);
  return lv;
}

/* Retrieval accuracy on the host: plain copies of both towers. */
static int eval_host(const clip_model *m) {
  pair_batch b = load_batch(100);
  const dt_tensor *inputs[N_TOWERS] = {b.img, b.txt};
  dt_tensor *emb[N_TOWERS];
  for (int k = 0; k < N_TOWERS; k++) {
    dt_tensor *pi = dt_inner(m->towers[k].proj);
    dt_tensor *bi = dt_inner(m->towers[k].bias);
    dt_tensor *ph = dt_to_device(pi, dt_cpu());
    dt_tensor *bh = dt_to_device(bi, dt_cpu());
    dt_tensor *a = dt_matmul(inputs[k], ph);
    emb[k] = dt_add(a, bh);
    dt_free(pi);
    dt_free(bi);
    dt_free(ph);
    dt_free(bh);
    dt_free(a);
  }
  dt_tensor *tT = dt_transpose(emb[1]);
  dt_tensor *sim = dt_matmul(emb[0], tT);
  float s[BATCH * BATCH];
  dt_read_floats(sim, s, BATCH * BATCH);
  int correct = 0;
  for (int i = 0; i < BATCH; i++) {
    int best = 0;
    for (int j = 1; j < BATCH; j++)
      if (s[i * BATCH + j] > s[i * BATCH + best]) best = j;
    correct += best == i;
  }
  dt_free(tT);
  dt_free(sim);
  dt_free(emb[0]);
  dt_free(emb[1]);
  dt_free(b.img);
  dt_free(b.txt);
  return correct;
}

int main(void) {
  clip_model m;
  clip_init(&m);
  for (int step = 0; step < STEPS; step++) printf("step %d: loss %.4f\n", step, train_step(&m, step, 0.1f));
  printf("host retrieval: %d/%d\n", eval_host(&m), BATCH);
  for (int k = 0; k < N_TOWERS; k++) {
    dt_free(m.towers[k].proj);
    dt_free(m.towers[k].bias);
  }
  dt_free(m.log_temp);
  return 0;
}
