// provenance: blind round d11
// Logistic-regression-style classifier trained with Adam. Device from TRAIN_DEVICE
// (cpu, sim:0, sim:1). The Adam moments are allocated "like the parameter".
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define FEATURES 6
#define CLASSES 3
#define BATCH 12
#define MAX_PARAMS 4

typedef struct {
  float lr, beta1, beta2, eps;
  int t;
  int n;
  dt_tensor **params[MAX_PARAMS];
  dt_tensor *m[MAX_PARAMS];
  dt_tensor *v[MAX_PARAMS];
  dt_device ad;
} adam;

typedef struct {
  dt_device ad;
  dt_tensor *w;
  dt_tensor *b;
} classifier;

static dt_device device_from_env(void) {
  const char *s = getenv("TRAIN_DEVICE");
  if (!s) return dt_sim(0);
  if (strcmp(s, "cpu") == 0) return dt_cpu();
  if (strcmp(s, "sim:1") == 0) return dt_sim(1);
  return dt_sim(0);
}

static dt_tensor *zeros_like(const dt_tensor *t) {
  int64_t shape[DT_MAX_RANK];
  int r = dt_rank(t);
  for (int i = 0; i < r; i++) shape[i] = dt_dim(t, i);
  return dt_zeros(dt_device_of(t), DT_FLOAT, r, shape);
}

static void classifier_init(classifier *c, dt_device inner) {
  c->ad = dt_autodiff(inner);
  int64_t ws[2] = {FEATURES, CLASSES};
  int64_t bs[2] = {1, CLASSES};
  dt_tensor *w0 = dt_randn(inner, 7, 2, ws);
  dt_tensor *w1 = dt_mul_scalar(w0, 0.2f);
  c->w = dt_require_grad(dt_from_inner(c->ad, w1));
  c->b = dt_require_grad(dt_zeros(c->ad, DT_FLOAT, 2, bs));
  dt_free(w0); dt_free(w1);
}

static dt_tensor *classifier_forward(const classifier *c, const dt_tensor *x) {
  dt_tensor *z = dt_matmul(x, c->w);
  dt_tensor *zb = dt_add(z, c->b);
  dt_tensor *p = dt_sigmoid(zb);
  dt_free(z); dt_free(zb);
  return p;
}

static void adam_init(adam *opt, dt_device ad, float lr) {
  memset(opt, 0, sizeof *opt);
  opt->lr = lr;
  opt->beta1 = 0.9f;
  opt->beta2 = 0.999f;
  opt->eps = 1e-8f;
  opt->ad = ad;
}

static void adam_add_param(adam *opt, dt_tensor **p) {
  if (opt->n >= MAX_PARAMS) return;
  opt->params[opt->n] = p;
  opt->m[opt->n] = zeros_like(*p);
  opt->v[opt->n] = zeros_like(*p);
  opt->n++;
}

static dt_tensor *ema(const dt_tensor *state, const dt_tensor *x, float beta) {
  dt_tensor *a = dt_mul_scalar(state, beta);
  dt_tensor *b = dt_mul_scalar(x, 1.0f - beta);
  dt_tensor *out = dt_add(a, b); // expect-error: autodiff-expected
  dt_free(a); dt_free(b);
  return out;
}

static void adam_step(adam *opt) {
  opt->t++;
  float bc1 = 1.0f - powf(opt->beta1, (float)opt->t);
  float bc2 = 1.0f - powf(opt->beta2, (float)opt->t);
  for (int i = 0; i < opt->n; i++) {
    dt_tensor *p = *opt->params[i];
    dt_tensor *g = dt_grad(p);
    if (!g) continue;
    dt_tensor *g2 = dt_mul(g, g);
    dt_tensor *m = ema(opt->m[i], g, opt->beta1);
    dt_tensor *v = ema(opt->v[i], g2, opt->beta2);
    dt_free(opt->m[i]); dt_free(opt->v[i]);
    opt->m[i] = m; opt->v[i] = v;
    /* sqrt(v_hat) via exp(0.5*log(v_hat + eps)) */
    dt_tensor *vh = dt_mul_scalar(v, 1.0f / bc2);
    dt_tensor *vhe = dt_add_scalar(vh, opt->eps);
    dt_tensor *lg = dt_log(vhe);
    dt_tensor *half = dt_mul_scalar(lg, 0.5f);
    dt_tensor *den = dt_exp(half);
    dt_tensor *mh = dt_mul_scalar(m, opt->lr / bc1);
    dt_tensor *upd = dt_div(mh, den);
    dt_tensor *inner = dt_inner(p);
    dt_tensor *next = dt_sub(inner, upd);
    dt_free(p);
    *opt->params[i] = dt_require_grad(dt_from_inner(opt->ad, next));
    dt_free(vh); dt_free(vhe); dt_free(lg); dt_free(half); dt_free(den);
    dt_free(mh); dt_free(upd); dt_free(inner); dt_free(next); dt_free(g); dt_free(g2);
  }
}

static void adam_free(adam *opt) {
  for (int i = 0; i < opt->n; i++) { dt_free(opt->m[i]); dt_free(opt->v[i]); }
}

static void make_batch(float *x, float *y, int step) {
  for (int i = 0; i < BATCH; i++) {
    int cls = (i + step) % CLASSES;
    for (int j = 0; j < FEATURES; j++)
      x[i * FEATURES + j] = (j % CLASSES == cls ? 1.0f : 0.0f) + 0.1f * (float)((i * 7 + j * 3 + step) % 5) - 0.2f;
    for (int k = 0; k < CLASSES; k++) y[i * CLASSES + k] = (k == cls) ? 1.0f : 0.0f;
  }
}

static float read_scalar(const dt_tensor *t) {
  float v = NAN;
  dt_tensor *d = dt_detach(t);
  dt_tensor *p = dt_inner(d);
  dt_read_floats(p, &v, 1);
  dt_free(p); dt_free(d);
  return v;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 20;
  if (steps <= 0) steps = 20;
  dt_device dev = device_from_env();
  classifier clf;
  classifier_init(&clf, dev);
  adam opt;
  adam_init(&opt, clf.ad, 0.05f);
  adam_add_param(&opt, &clf.w);
  adam_add_param(&opt, &clf.b);

  float xb[BATCH * FEATURES], yb[BATCH * CLASSES];
  int64_t xs[2] = {BATCH, FEATURES}, ys[2] = {BATCH, CLASSES};
  float loss_hist[64];
  int nh = 0;
  for (int s = 0; s < steps; s++) {
    make_batch(xb, yb, s);
    dt_tensor *x = dt_from_floats(clf.ad, xb, 2, xs);
    dt_tensor *y = dt_from_floats(clf.ad, yb, 2, ys);
    dt_tensor *p = classifier_forward(&clf, x);
    dt_tensor *loss = dt_mse_loss(p, y);
    dt_backward(loss);
    float lv = read_scalar(loss);
    if (nh < 64) loss_hist[nh++] = lv;
    adam_step(&opt);
    if (s % 5 == 0) printf("step %3d loss %.5f\n", s, lv);
    dt_free(loss); dt_free(p); dt_free(x); dt_free(y);
  }
  if (nh > 1) printf("loss %.5f -> %.5f\n", loss_hist[0], loss_hist[nh - 1]);
  adam_free(&opt);
  dt_free(clf.w); dt_free(clf.b);
  return 0;
}
