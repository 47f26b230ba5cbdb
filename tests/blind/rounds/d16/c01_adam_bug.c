// provenance: blind round d16
// c01: a two-layer regression MLP trained with Adam on autodiff<sim:0>. The trainer is set
// up in two phases (build, then place on the accelerator); the optimizer's moment buffers are
// allocated in the build phase, from the devices the parameters have *then* (the host).
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_PARAMS 4
#define BATCH 8
#define IN_DIM 4
#define HIDDEN 16
#define OUT_DIM 1

typedef struct run_config {
  int steps;
  float lr;
  float beta1, beta2, eps;
  dt_device host;  /* where the weights are initialised and checkpoints are read */
  dt_device accel; /* where training runs */
  unsigned long long seed;
} run_config;

typedef struct mlp {
  dt_tensor *w1, *b1, *w2, *b2;
} mlp;

typedef struct adam {
  dt_tensor *m[N_PARAMS];
  dt_tensor *v[N_PARAMS];
  float beta1, beta2, eps, lr;
  int t;
} adam;

typedef struct trainer {
  run_config cfg;
  mlp model;
  adam opt;
  dt_device dev; /* the device the model currently lives on */
} trainer;

static void config_default(run_config *c) {
  c->steps = 6;
  c->lr = 0.01f;
  c->beta1 = 0.9f;
  c->beta2 = 0.999f;
  c->eps = 1e-8f;
  c->host = dt_autodiff(dt_cpu());
  c->accel = dt_autodiff(dt_sim(0));
  c->seed = 1234;
}

static dt_tensor **mlp_slot(mlp *m, int i) {
  switch (i) {
  case 0: return &m->w1;
  case 1: return &m->b1;
  case 2: return &m->w2;
  default: return &m->b2;
  }
}

static void mlp_init(mlp *m, dt_device dev, unsigned long long seed) {
  m->w1 = dt_require_grad(dt_mul_scalar(dt_randn(dev, seed, 2, (const int64_t[]){IN_DIM, HIDDEN}), 0.5f));
  m->b1 = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){HIDDEN}));
  m->w2 = dt_require_grad(dt_mul_scalar(dt_randn(dev, seed + 1, 2, (const int64_t[]){HIDDEN, OUT_DIM}), 0.25f));
  m->b2 = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){OUT_DIM}));
}

/* Moves every parameter to dev and makes it a fresh trainable leaf there. */
static void mlp_to(mlp *m, dt_device dev) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor **slot = mlp_slot(m, i);
    dt_tensor *moved = dt_to_device(*slot, dev);
    dt_tensor *leaf = dt_detach(moved);
    dt_free(moved);
    dt_free(*slot);
    *slot = dt_require_grad(leaf);
  }
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w1);
  dt_tensor *hb = dt_add(h, m->b1);
  dt_tensor *a = dt_tanh(hb);
  dt_tensor *o = dt_matmul(a, m->w2);
  dt_tensor *y = dt_add(o, m->b2);
  dt_free(h);
  dt_free(hb);
  dt_free(a);
  dt_free(o);
  return y;
}

static void mlp_free(mlp *m) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(*mlp_slot(m, i));
    *mlp_slot(m, i) = NULL;
  }
}

/* Moment buffers shaped like each parameter, on the parameter's (inner) device. */
static void adam_init(adam *o, mlp *m, const run_config *c) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *p = *mlp_slot(m, i);
    int64_t shape[DT_MAX_RANK];
    int r = dt_rank(p);
    for (int k = 0; k < r; k++)
      shape[k] = dt_dim(p, k);
    dt_device d = dt_inner_device(dt_device_of(p));
    o->m[i] = dt_zeros(d, DT_FLOAT, r, shape);
    o->v[i] = dt_zeros(d, DT_FLOAT, r, shape);
  }
  o->beta1 = c->beta1;
  o->beta2 = c->beta2;
  o->eps = c->eps;
  o->lr = c->lr;
  o->t = 0;
}

static void adam_step(adam *o, mlp *m, dt_device ad) {
  o->t++;
  float bc1 = 1.0f - powf(o->beta1, (float)o->t);
  float bc2 = 1.0f - powf(o->beta2, (float)o->t);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor **slot = mlp_slot(m, i);
    dt_tensor *g = dt_grad(*slot);
    if (!g)
      continue;
    dt_tensor *ms = dt_mul_scalar(o->m[i], o->beta1);
    dt_tensor *gs = dt_mul_scalar(g, 1.0f - o->beta1);
    dt_tensor *mn = dt_add(ms, gs); // expect-error: backend-mismatch
    dt_tensor *g2 = dt_mul(g, g);
    dt_tensor *vs = dt_mul_scalar(o->v[i], o->beta2);
    dt_tensor *g2s = dt_mul_scalar(g2, 1.0f - o->beta2);
    dt_tensor *vn = dt_add(vs, g2s); // expect-error: backend-mismatch
    dt_free(o->m[i]);
    dt_free(o->v[i]);
    o->m[i] = mn;
    o->v[i] = vn;
    /* p -= lr * mhat / (sqrt(vhat) + eps), with sqrt(x) = exp(0.5 log x) */
    dt_tensor *mhat = dt_mul_scalar(mn, 1.0f / bc1);
    dt_tensor *vhat = dt_mul_scalar(vn, 1.0f / bc2);
    dt_tensor *lv = dt_log(dt_add_scalar(vhat, 1e-12f));
    dt_tensor *sq = dt_exp(dt_mul_scalar(lv, 0.5f));
    dt_tensor *den = dt_add_scalar(sq, o->eps);
    dt_tensor *upd = dt_mul_scalar(dt_div(mhat, den), o->lr);
    dt_tensor *inner = dt_inner(*slot);
    dt_tensor *next = dt_sub(inner, upd);
    dt_free(*slot);
    *slot = dt_require_grad(dt_from_inner(ad, next));
    dt_free(inner);
    dt_free(g);
    dt_free(ms);
    dt_free(gs);
    dt_free(g2);
    dt_free(vs);
    dt_free(g2s);
    dt_free(mhat);
    dt_free(vhat);
    dt_free(lv);
    dt_free(sq);
    dt_free(den);
    dt_free(upd);
  }
}

/* ---- data: y = sum(x) * 0.5, made on the host and uploaded per batch ---- */

typedef struct loader {
  float xs[BATCH * IN_DIM];
  float ys[BATCH * OUT_DIM];
  unsigned state;
} loader;

static float next_uniform(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)((*s >> 8) & 0xffff) / 65536.0f - 0.5f;
}

static void loader_fill(loader *l) {
  for (int b = 0; b < BATCH; b++) {
    float acc = 0.0f;
    for (int k = 0; k < IN_DIM; k++) {
      float v = next_uniform(&l->state);
      l->xs[b * IN_DIM + k] = v;
      acc += v;
    }
    l->ys[b] = 0.5f * acc;
  }
}

static void loader_batch(loader *l, dt_device ad, dt_tensor **x, dt_tensor **y) {
  loader_fill(l);
  dt_device plain = dt_inner_device(ad);
  dt_tensor *xi = dt_from_floats(plain, l->xs, 2, (const int64_t[]){BATCH, IN_DIM});
  dt_tensor *yi = dt_from_floats(plain, l->ys, 2, (const int64_t[]){BATCH, OUT_DIM});
  *x = dt_from_inner(ad, xi);
  *y = dt_from_inner(ad, yi);
}

/* ---- setup in two phases ---- */

static void trainer_build(trainer *t) {
  config_default(&t->cfg);
  t->dev = t->cfg.host;
  mlp_init(&t->model, t->dev, t->cfg.seed);
  adam_init(&t->opt, &t->model, &t->cfg);
}

static void trainer_place(trainer *t) {
  if (!dt_device_equal(t->dev, t->cfg.accel)) {
    mlp_to(&t->model, t->cfg.accel);
    t->dev = t->cfg.accel;
  }
}

static float read_scalar(const dt_tensor *t) {
  float v = 0.0f;
  if (dt_read_floats(t, &v, 1) != 0)
    return NAN;
  return v;
}

static float train_step(trainer *t, loader *l) {
  dt_tensor *x, *y;
  loader_batch(l, t->dev, &x, &y);
  dt_tensor *pred = mlp_forward(&t->model, x);
  dt_tensor *loss = dt_mse_loss(pred, y);
  dt_backward(loss);
  adam_step(&t->opt, &t->model, t->dev);
  float v = read_scalar(loss);
  dt_free(x);
  dt_free(y);
  dt_free(pred);
  dt_free(loss);
  return v;
}

int main(int argc, char **argv) {
  (void)argv;
  trainer t;
  memset(&t, 0, sizeof t);
  trainer_build(&t);
  trainer_place(&t);
  loader l = {.state = 7u};
  float first = 0.0f, last = 0.0f;
  for (int s = 0; s < t.cfg.steps; s++) {
    last = train_step(&t, &l);
    if (s == 0)
      first = last;
    if (argc > 1)
      printf("step %d loss %.5f\n", s, last);
  }
  printf("loss %.5f -> %.5f\n", first, last);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(t.opt.m[i]);
    dt_free(t.opt.v[i]);
  }
  mlp_free(&t.model);
  return 0;
}
