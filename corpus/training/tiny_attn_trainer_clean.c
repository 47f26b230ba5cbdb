// provenance: blind round field5
// A tiny single-head attention regressor: config from argv/getenv (strtol), model init on an
// autodiff device, a synthetic data pipeline, train loop with a hand-written SGD through
// dt_inner/dt_from_inner, evaluation on plain tensors, host metrics, and a checkpoint
// round-trip through host memory. Clean.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEQ 4
#define DM 4
#define NPARAM 4
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s\n", #c); exit(2); } } while (0)

typedef enum { DEV_HOST, DEV_SIM0, DEV_SIM1 } dev_choice;

typedef struct {
  dev_choice where;
  int epochs;
  int batches;
  float lr;
  int verbose;
  uint64_t seed;
} config;

typedef struct {
  dt_device ad;      /* autodiff<base> */
  dt_device base;
  dt_tensor *p[NPARAM];  /* wq, wk, wv, wo */
} attn_model;

typedef struct {
  dt_device dev;
  int cursor;
  int n;
} loader;

typedef struct { float loss_sum; int steps; float last_eval; } stats;

static const char *const PNAME[NPARAM] = { "wq", "wk", "wv", "wo" };

static dt_device resolve(dev_choice c) {
  switch (c) {
  case DEV_HOST: return dt_cpu();
  case DEV_SIM0: return dt_sim(0);
  case DEV_SIM1: return dt_sim(1);
  }
  return dt_cpu();
}

static int parse_int(const char *s, int dflt) {
  if (!s || !*s) return dflt;
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (end == s || v < 0 || v > 1000) return dflt;
  return (int)v;
}

static void config_defaults(config *c) {
  memset(c, 0, sizeof *c);
  c->where = DEV_SIM0;
  c->epochs = 2;
  c->batches = 3;
  c->lr = 0.05f;
  c->seed = 1234;
}

static int config_parse(config *c, int argc, char **argv) {
  config_defaults(c);
  c->epochs = parse_int(getenv("TINY_EPOCHS"), c->epochs);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--host")) c->where = DEV_HOST;
    else if (!strcmp(a, "--sim1")) c->where = DEV_SIM1;
    else if (!strcmp(a, "-v")) c->verbose = 1;
    else if (!strncmp(a, "--epochs=", 9)) c->epochs = parse_int(a + 9, c->epochs);
    else if (!strncmp(a, "--batches=", 10)) c->batches = parse_int(a + 10, c->batches);
    else { fprintf(stderr, "unknown option %s\n", a); return -1; }
  }
  if (c->epochs > 5) c->epochs = 5;
  return 0;
}

static void model_init(attn_model *m, const config *c) {
  m->base = resolve(c->where);
  m->ad = dt_autodiff(m->base);
  for (int i = 0; i < NPARAM; i++) {
    dt_tensor *r = dt_randn(m->ad, c->seed + (uint64_t)i, 2, (const int64_t[]){DM, DM});
    dt_tensor *s = dt_mul_scalar(r, 0.3f);
    dt_free(r);
    m->p[i] = dt_require_grad(s);
  }
}

static void model_free(attn_model *m) {
  for (int i = 0; i < NPARAM; i++) { dt_free(m->p[i]); m->p[i] = NULL; }
}

/* softmax over the last axis of a [SEQ, SEQ] score matrix */
static dt_tensor *softmax_rows(const dt_tensor *s) {
  dt_tensor *e = dt_exp(s);
  dt_tensor *z = dt_sum_dim(e, 1);
  dt_tensor *zc = dt_reshape(z, 2, (const int64_t[]){SEQ, 1});
  dt_tensor *out = dt_div(e, zc);
  dt_free(zc); dt_free(z); dt_free(e);
  return out;
}

/* works for autodiff and plain parameter sets alike: x and ps share the device */
static dt_tensor *attn_forward(dt_tensor *const *ps, const dt_tensor *x) {
  dt_tensor *q = dt_matmul(x, ps[0]);
  dt_tensor *k = dt_matmul(x, ps[1]);
  dt_tensor *v = dt_matmul(x, ps[2]);
  dt_tensor *kt = dt_transpose(k);
  dt_tensor *s = dt_matmul(q, kt);
  dt_tensor *ss = dt_mul_scalar(s, 0.5f);
  dt_tensor *a = softmax_rows(ss);
  dt_tensor *ctx = dt_matmul(a, v);
  dt_tensor *o = dt_matmul(ctx, ps[3]);
  dt_free(ctx); dt_free(a); dt_free(ss); dt_free(s); dt_free(kt);
  dt_free(v); dt_free(k); dt_free(q);
  return o;
}

static void loader_init(loader *l, dt_device d, int n) { l->dev = d; l->cursor = 0; l->n = n; }

static int loader_next(loader *l, dt_tensor **x, dt_tensor **y) {
  if (l->cursor >= l->n) return 0;
  float xs[SEQ * DM], ys[SEQ * DM];
  for (int i = 0; i < SEQ * DM; i++) {
    xs[i] = (float)((i * 7 + l->cursor * 3) % 11) / 11.0f;
    ys[i] = xs[i] * 0.5f;
  }
  *x = dt_from_floats(l->dev, xs, 2, (const int64_t[]){SEQ, DM});
  *y = dt_from_floats(l->dev, ys, 2, (const int64_t[]){SEQ, DM});
  l->cursor++;
  return 1;
}

static void sgd(attn_model *m, float lr) {
  for (int i = 0; i < NPARAM; i++) {
    dt_tensor *g = dt_grad(m->p[i]);
    if (!g) continue;
    dt_tensor *w = dt_inner(m->p[i]);
    dt_tensor *gs = dt_mul_scalar(g, lr);
    dt_tensor *nw = dt_sub(w, gs);
    dt_free(m->p[i]);
    m->p[i] = dt_require_grad(dt_from_inner(m->ad, nw));
    dt_free(nw); dt_free(gs); dt_free(w); dt_free(g);
  }
}

static float read_scalar(const dt_tensor *t) {
  dt_tensor *h = dt_to_device(t, dt_cpu());
  float v = 0.0f;
  CHECK(dt_read_floats(h, &v, 1) == 0);
  dt_free(h);
  return v;
}

static float train_epoch(attn_model *m, const config *c, stats *st) {
  loader ld;
  loader_init(&ld, m->ad, c->batches);
  dt_tensor *x, *y;
  float total = 0.0f;
  while (loader_next(&ld, &x, &y)) {
    dt_tensor *o = attn_forward(m->p, x);
    dt_tensor *loss = dt_mse_loss(o, y);
    CHECK(dt_backward(loss) == 0);
    dt_tensor *pl = dt_inner(loss);
    float lv = read_scalar(pl);
    dt_free(pl);
    total += lv;
    st->loss_sum += lv;
    st->steps++;
    sgd(m, c->lr);
    dt_free(loss); dt_free(o); dt_free(x); dt_free(y);
  }
  return total / (float)(c->batches ? c->batches : 1);
}

static float evaluate(const attn_model *m, const config *c) {
  dt_tensor *plain[NPARAM];
  for (int i = 0; i < NPARAM; i++) plain[i] = dt_inner(m->p[i]);
  loader ld;
  loader_init(&ld, m->base, c->batches);
  dt_tensor *x, *y;
  float total = 0.0f;
  int n = 0;
  while (loader_next(&ld, &x, &y)) {
    dt_tensor *o = attn_forward(plain, x);
    dt_tensor *ho = dt_to_device(o, dt_cpu());
    dt_tensor *hy = dt_to_device(y, dt_cpu());
    dt_tensor *l = dt_mse_loss(ho, hy);
    total += read_scalar(l);
    n++;
    dt_free(l); dt_free(hy); dt_free(ho); dt_free(o); dt_free(x); dt_free(y);
  }
  for (int i = 0; i < NPARAM; i++) dt_free(plain[i]);
  return n ? total / (float)n : 0.0f;
}

typedef struct { float data[NPARAM][DM * DM]; int epoch; } checkpoint;

static void ckpt_save(checkpoint *ck, const attn_model *m, int epoch) {
  for (int i = 0; i < NPARAM; i++) {
    dt_tensor *w = dt_inner(m->p[i]);
    dt_tensor *h = dt_to_device(w, dt_cpu());
    CHECK(dt_read_floats(h, ck->data[i], DM * DM) == 0);
    dt_free(h); dt_free(w);
  }
  ck->epoch = epoch;
}

static void ckpt_load(attn_model *m, const checkpoint *ck) {
  for (int i = 0; i < NPARAM; i++) {
    dt_tensor *h = dt_from_floats(dt_cpu(), ck->data[i], 2, (const int64_t[]){DM, DM});
    dt_tensor *d = dt_to_device(h, m->base);
    dt_free(m->p[i]);
    m->p[i] = dt_require_grad(dt_from_inner(m->ad, d));
    dt_free(d); dt_free(h);
  }
}

static void log_params(const attn_model *m) {
  for (int i = 0; i < NPARAM; i++) {
    dt_tensor *w = dt_inner(m->p[i]);
    dt_tensor *s = dt_sum(w);
    printf("  %s sum=%.4f\n", PNAME[i], (double)read_scalar(s));
    dt_free(s); dt_free(w);
  }
}

int main(int argc, char **argv) {
  config cfg;
  if (config_parse(&cfg, argc, argv)) return 1;
  attn_model m;
  model_init(&m, &cfg);
  stats st = {0};
  checkpoint *ck = calloc(1, sizeof *ck);
  CHECK(ck != NULL);
  float best = 1e30f;
  for (int e = 0; e < cfg.epochs; e++) {
    float tl = train_epoch(&m, &cfg, &st);
    float ev = evaluate(&m, &cfg);
    st.last_eval = ev;
    if (cfg.verbose) printf("epoch %d train %.4f eval %.4f\n", e, (double)tl, (double)ev);
    if (ev < best) { best = ev; ckpt_save(ck, &m, e); }
  }
  ckpt_load(&m, ck);
  float after = evaluate(&m, &cfg);
  printf("best epoch %d eval %.4f (reloaded %.4f), %d steps\n", ck->epoch, (double)best,
         (double)after, st.steps);
  if (cfg.verbose) log_params(&m);
  free(ck);
  model_free(&m);
  return 0;
}
