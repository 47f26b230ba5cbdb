// provenance: blind round field4
// A long training program (config parsing, availability probing, a layer table, an autodiff
// MLP with a hand-written Adam-ish optimizer, gradient clipping, a frozen embedding, int
// labels and bool masks for accuracy, a host checkpoint, evaluation on a second device and a
// resume path). Two bugs: the accuracy threshold is created on the prediction's (autodiff)
// device and compared with a plain tensor (error), and the RMS branch adds an epsilon made on
// the host (fails unless --host: warning).
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 4
#define HID 8
#define OUT 1
#define BATCH 6
#define NLAYER 3

typedef enum { OPT_SGD, OPT_MOMENTUM, OPT_RMS } opt_kind;

typedef struct {
  dt_device train_dev;   /* autodiff device */
  dt_device eval_dev;    /* plain device for evaluation */
  opt_kind opt;
  int epochs;
  float lr;
  float clip;
  int freeze_embed;
  int resume;
} config;

typedef struct { const char *name; int64_t in, out; int frozen; } layer_spec;

static const layer_spec SPECS[NLAYER] = {
  { "embed", IN, HID, 1 },
  { "hidden", HID, HID, 0 },
  { "head", HID, OUT, 0 },
};

typedef struct {
  dt_tensor *w;
  dt_tensor *state;  /* optimizer state, plain, on the inner device */
  int frozen;
} layer;

typedef struct {
  dt_device ad;
  layer l[NLAYER];
} mlp;

typedef struct { dt_tensor *x; dt_tensor *y; dt_tensor *label; } batch;

/* ---------------------------------------------------------------- config */

static dt_device pick_accel(void) {
  if (dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return dt_sim(0);
}

static config parse(int argc, char **argv) {
  config c;
  c.train_dev = dt_autodiff(dt_sim(0));
  c.eval_dev = dt_sim(1);
  c.opt = OPT_MOMENTUM;
  c.epochs = 2;
  c.lr = 0.05f;
  c.clip = 1.0f;
  c.freeze_embed = 1;
  c.resume = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--sgd")) c.opt = OPT_SGD;
    else if (!strcmp(argv[i], "--rms")) c.opt = OPT_RMS;
    else if (!strcmp(argv[i], "--host")) { c.train_dev = dt_autodiff(dt_cpu()); c.eval_dev = dt_cpu(); }
    else if (!strcmp(argv[i], "--accel")) c.train_dev = dt_autodiff(pick_accel());
    else if (!strcmp(argv[i], "--resume")) c.resume = 1;
    else if (!strcmp(argv[i], "--train-all")) c.freeze_embed = 0;
    else if (!strncmp(argv[i], "--epochs=", 9)) c.epochs = atoi(argv[i] + 9);
  }
  if (c.epochs < 1) c.epochs = 1;
  if (c.epochs > 5) c.epochs = 5;
  return c;
}

/* ---------------------------------------------------------------- model */

static void mlp_init(mlp *m, const config *c) {
  m->ad = c->train_dev;
  dt_device inner = dt_inner_device(m->ad);
  for (int i = 0; i < NLAYER; i++) {
    const layer_spec *s = &SPECS[i];
    m->l[i].w = dt_randn(m->ad, 100 + (uint64_t)i, 2, (const int64_t[]){s->in, s->out});
    m->l[i].frozen = s->frozen && c->freeze_embed;
    if (!m->l[i].frozen) dt_require_grad(m->l[i].w);
    m->l[i].state = dt_zeros(inner, DT_FLOAT, 2, (const int64_t[]){s->in, s->out});
  }
}

static void mlp_free(mlp *m) {
  for (int i = 0; i < NLAYER; i++) {
    dt_free(m->l[i].w);
    dt_free(m->l[i].state);
  }
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->l[0].w);
  if (m->l[0].frozen) {
    dt_tensor *d = dt_detach(h);
    dt_free(h);
    h = d;
  }
  dt_tensor *a = dt_tanh(h);
  dt_tensor *h2 = dt_matmul(a, m->l[1].w);
  dt_tensor *a2 = dt_relu(h2);
  dt_tensor *y = dt_matmul(a2, m->l[2].w);
  dt_free(h); dt_free(a); dt_free(h2); dt_free(a2);
  return y;
}

/* ---------------------------------------------------------------- data */

static batch make_batch(dt_device ad, int step) {
  float xs[BATCH * IN], ys[BATCH];
  int64_t lab[BATCH];
  for (int i = 0; i < BATCH; i++) {
    float s = 0;
    for (int j = 0; j < IN; j++) {
      xs[i * IN + j] = (float)((i * 7 + j * 3 + step) % 5) / 5.0f - 0.4f;
      s += xs[i * IN + j];
    }
    ys[i] = s > 0 ? 1.0f : 0.0f;
    lab[i] = s > 0;
  }
  batch b;
  b.x = dt_from_floats(ad, xs, 2, (const int64_t[]){BATCH, IN});
  b.y = dt_from_floats(ad, ys, 2, (const int64_t[]){BATCH, OUT});
  b.label = dt_from_ints(dt_inner_device(ad), lab, 1, (const int64_t[]){BATCH});
  return b;
}

static void batch_free(batch *b) {
  dt_free(b->x); dt_free(b->y); dt_free(b->label);
}

/* ---------------------------------------------------------------- optimizer */

static float global_norm(dt_tensor *const *g, int n) {
  float t = 0;
  for (int i = 0; i < n; i++) {
    if (!g[i]) continue;
    dt_tensor *sq = dt_mul(g[i], g[i]);
    dt_tensor *s = dt_sum(sq);
    float v = 0;
    dt_read_floats(s, &v, 1);
    t += v;
    dt_free(sq); dt_free(s);
  }
  return sqrtf(t);
}

static dt_tensor *direction(const config *c, layer *l, const dt_tensor *g) {
  switch (c->opt) {
  case OPT_SGD:
    return dt_mul_scalar(g, 1.0f);
  case OPT_MOMENTUM: {
    dt_tensor *v = dt_mul_scalar(l->state, 0.9f);
    dt_tensor *nv = dt_add(v, g);
    dt_free(v);
    dt_free(l->state);
    l->state = nv;
    return dt_mul_scalar(nv, 1.0f);
  }
  case OPT_RMS: {
    dt_tensor *g2 = dt_mul(g, g);
    dt_tensor *a = dt_mul_scalar(l->state, 0.9f);
    dt_tensor *b = dt_mul_scalar(g2, 0.1f);
    dt_tensor *eps = dt_full(dt_cpu(), 1e-6f, 1, (const int64_t[]){1});
    dt_tensor *ab = dt_add(a, b);
    dt_tensor *ns = dt_add(ab, eps); // expect-warning: backend-mismatch
    dt_free(g2); dt_free(a); dt_free(b); dt_free(ab); dt_free(eps);
    dt_free(l->state);
    l->state = ns;
    return dt_mul_scalar(g, 0.5f);
  }
  }
  return NULL;
}

static void optimizer_step(const config *c, mlp *m) {
  dt_tensor *g[NLAYER];
  for (int i = 0; i < NLAYER; i++) g[i] = m->l[i].frozen ? NULL : dt_grad(m->l[i].w);
  float norm = global_norm(g, NLAYER);
  float scale = norm > c->clip ? c->clip / norm : 1.0f;
  for (int i = 0; i < NLAYER; i++) {
    if (!g[i]) continue;
    dt_tensor *gc = dt_mul_scalar(g[i], scale);
    dt_tensor *d = direction(c, &m->l[i], gc);
    dt_tensor *wi = dt_inner(m->l[i].w);
    dt_tensor *s = dt_mul_scalar(d, c->lr);
    dt_tensor *nw = dt_sub(wi, s);
    dt_free(m->l[i].w);
    m->l[i].w = dt_require_grad(dt_from_inner(m->ad, nw));
    dt_free(gc); dt_free(d); dt_free(wi); dt_free(s); dt_free(nw); dt_free(g[i]);
  }
}

/* ---------------------------------------------------------------- metrics */

static int64_t correct(const dt_tensor *pred, const dt_tensor *label) {
  dt_device d = dt_device_of(label);
  dt_tensor *p = dt_inner(pred);
  dt_tensor *flat = dt_reshape(p, 1, (const int64_t[]){BATCH});
  dt_tensor *half = dt_full(dt_device_of(pred), 0.5f, 1, (const int64_t[]){1});
  dt_tensor *pos = dt_greater(flat, half); // expect-error: autodiff-expected
  dt_tensor *one = dt_ones(d, DT_INT, 1, (const int64_t[]){BATCH});
  dt_tensor *zero = dt_zeros(d, DT_INT, 1, (const int64_t[]){BATCH});
  dt_tensor *pi = dt_where(pos, one, zero);
  dt_tensor *diff = dt_sub(pi, label);
  dt_tensor *sq = dt_mul(diff, diff);
  dt_tensor *wrong = dt_sum(sq);
  int64_t w = 0;
  dt_read_ints(wrong, &w, 1);
  dt_free(p); dt_free(flat); dt_free(half); dt_free(pos); dt_free(one); dt_free(zero);
  dt_free(pi); dt_free(diff); dt_free(sq); dt_free(wrong);
  return BATCH - w;
}

/* ---------------------------------------------------------------- checkpoint */

static void save(const mlp *m, float *store) {
  int64_t off = 0;
  for (int i = 0; i < NLAYER; i++) {
    dt_tensor *wi = dt_inner(m->l[i].w);
    dt_tensor *h = dt_to_device(wi, dt_cpu());
    dt_read_floats(h, store + off, dt_numel(h));
    off += dt_numel(h);
    dt_free(wi); dt_free(h);
  }
}

static void load(mlp *m, const float *store) {
  int64_t off = 0;
  for (int i = 0; i < NLAYER; i++) {
    const layer_spec *s = &SPECS[i];
    dt_tensor *p = dt_from_floats(dt_inner_device(m->ad), store + off, 2, (const int64_t[]){s->in, s->out});
    off += s->in * s->out;
    dt_free(m->l[i].w);
    m->l[i].w = dt_from_inner(m->ad, p);
    if (!m->l[i].frozen) dt_require_grad(m->l[i].w);
    dt_free(p);
  }
}

/* ---------------------------------------------------------------- evaluation */

static float evaluate(const mlp *m, const config *c) {
  dt_tensor *w[NLAYER];
  for (int i = 0; i < NLAYER; i++) {
    dt_tensor *wi = dt_inner(m->l[i].w);
    w[i] = dt_to_device(wi, c->eval_dev);
    dt_free(wi);
  }
  dt_tensor *x = dt_randn(c->eval_dev, 77, 2, (const int64_t[]){BATCH, IN});
  dt_tensor *h = x;
  for (int i = 0; i < NLAYER; i++) {
    dt_tensor *n = dt_matmul(h, w[i]);
    if (h != x) dt_free(h);
    h = n;
  }
  dt_tensor *mean = dt_mean(h);
  float v = 0;
  dt_read_floats(mean, &v, 1);
  for (int i = 0; i < NLAYER; i++) dt_free(w[i]);
  dt_free(x); dt_free(h); dt_free(mean);
  return v;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv) {
  config c = parse(argc, argv);
  mlp m;
  mlp_init(&m, &c);
  static float store[IN * HID + HID * HID + HID * OUT];
  if (c.resume) {
    for (size_t i = 0; i < sizeof store / sizeof store[0]; i++) store[i] = 0.01f;
    load(&m, store);
  }
  for (int e = 0; e < c.epochs; e++) {
    int64_t hits = 0;
    float last = 0;
    for (int s = 0; s < 3; s++) {
      batch b = make_batch(m.ad, s);
      dt_tensor *pred = mlp_forward(&m, b.x);
      dt_tensor *loss = dt_mse_loss(pred, b.y);
      dt_backward(loss);
      dt_read_floats(loss, &last, 1);
      hits += correct(pred, b.label);
      optimizer_step(&c, &m);
      dt_free(pred); dt_free(loss);
      batch_free(&b);
    }
    printf("epoch %d loss %.4f acc %.2f eval %.4f\n", e, (double)last, (double)hits / (3.0 * BATCH),
           (double)evaluate(&m, &c));
  }
  save(&m, store);
  mlp_free(&m);
  return 0;
}
