// blind round d15 — Adam and LAMB over a two-layer MLP.
// The training device comes from argv ("cpu", "sim", "sim1"); the parameters are autodiff
// leaves on autodiff<that device>, the optimizer moments are plain tensors on its inner
// device, dt_grad hands back plain tensors on that same inner device, and every update is
// done on dt_inner(param) and rewrapped with dt_from_inner. Evaluation copies the inner
// weights to the host. Nothing here mixes tags, although almost every line sits next to a
// tensor of the other autodiff-ness.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_PARAMS 4
#define BATCH 8
#define D_IN 6
#define D_HID 5
#define D_OUT 2
#define STEPS 6

typedef struct {
  const char *name;
  dt_tensor *value; /* autodiff leaf on model->train */
  dt_tensor *m;     /* first moment: plain, dt_inner_device(model->train) */
  dt_tensor *v;     /* second moment */
} param_slot;

typedef struct {
  dt_device train;
  param_slot p[N_PARAMS]; /* w1, b1, w2, b2 */
} mlp;

typedef enum { OPT_ADAM, OPT_LAMB } opt_kind;

typedef struct {
  opt_kind kind;
  float lr, beta1, beta2, eps, weight_decay;
  int step;
} optim_cfg;

static dt_device parse_device(const char *s) {
  if (s == NULL || strcmp(s, "sim") == 0) return dt_sim(0);
  if (strcmp(s, "sim1") == 0) return dt_sim(1);
  return dt_cpu();
}

static void slot_init(param_slot *s, const char *name, dt_device train, int rank,
                      const int64_t *shape, uint64_t seed) {
  dt_device inner = dt_inner_device(train);
  dt_tensor *raw = dt_randn(inner, seed, rank, shape);
  dt_tensor *scaled = dt_mul_scalar(raw, 0.3f);
  s->name = name;
  s->value = dt_require_grad(dt_from_inner(train, scaled));
  s->m = dt_zeros(inner, DT_FLOAT, rank, shape);
  s->v = dt_zeros(inner, DT_FLOAT, rank, shape);
  dt_free(raw);
  dt_free(scaled);
}

static void mlp_init(mlp *m, dt_device train) {
  m->train = train;
  slot_init(&m->p[0], "w1", train, 2, (const int64_t[]){D_IN, D_HID}, 11);
  slot_init(&m->p[1], "b1", train, 1, (const int64_t[]){D_HID}, 12);
  slot_init(&m->p[2], "w2", train, 2, (const int64_t[]){D_HID, D_OUT}, 13);
  slot_init(&m->p[3], "b2", train, 1, (const int64_t[]){D_OUT}, 14);
}

static void mlp_free(mlp *m) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(m->p[i].value);
    dt_free(m->p[i].m);
    dt_free(m->p[i].v);
  }
}

/* Works for autodiff tensors (training) and plain ones (evaluation): the four weights are
   passed in, so the same code runs on either side of the wrapper. */
static dt_tensor *mlp_apply(dt_tensor *const w[N_PARAMS], const dt_tensor *x) {
  dt_tensor *h0 = dt_matmul(x, w[0]);
  dt_tensor *h1 = dt_add(h0, w[1]);
  dt_tensor *h = dt_relu(h1);
  dt_tensor *o0 = dt_matmul(h, w[2]);
  dt_tensor *out = dt_add(o0, w[3]);
  dt_free(h0);
  dt_free(h1);
  dt_free(h);
  dt_free(o0);
  return out;
}

static float read_scalar(const dt_tensor *t) {
  float v = 0.0f;
  if (dt_read_floats(t, &v, 1) != 0) return NAN;
  return v;
}

/* sqrt through the ops the runtime has: exp(0.5 * log(x + tiny)). */
static dt_tensor *tensor_sqrt(const dt_tensor *x) {
  dt_tensor *shifted = dt_add_scalar(x, 1e-12f);
  dt_tensor *lg = dt_log(shifted);
  dt_tensor *half = dt_mul_scalar(lg, 0.5f);
  dt_tensor *r = dt_exp(half);
  dt_free(shifted);
  dt_free(lg);
  dt_free(half);
  return r;
}

static float tensor_norm(const dt_tensor *x) {
  dt_tensor *sq = dt_mul(x, x);
  dt_tensor *s = dt_sum(sq);
  float v = read_scalar(s);
  dt_free(sq);
  dt_free(s);
  return sqrtf(v);
}

/* One Adam (or LAMB) step for one slot. Returns 0 when the slot got no gradient. */
static int slot_step(param_slot *s, dt_device train, const optim_cfg *cfg) {
  dt_tensor *g = dt_grad(s->value);
  if (g == NULL) return 0;
  dt_tensor *m_old = dt_mul_scalar(s->m, cfg->beta1);
  dt_tensor *g_part = dt_mul_scalar(g, 1.0f - cfg->beta1);
  dt_tensor *m_new = dt_add(m_old, g_part);
  dt_tensor *g2 = dt_mul(g, g);
  dt_tensor *v_old = dt_mul_scalar(s->v, cfg->beta2);
  dt_tensor *g2_part = dt_mul_scalar(g2, 1.0f - cfg->beta2);
  dt_tensor *v_new = dt_add(v_old, g2_part);
  float bc1 = 1.0f - powf(cfg->beta1, (float)cfg->step);
  float bc2 = 1.0f - powf(cfg->beta2, (float)cfg->step);
  dt_tensor *m_hat = dt_mul_scalar(m_new, 1.0f / bc1);
  dt_tensor *v_hat = dt_mul_scalar(v_new, 1.0f / bc2);
  dt_tensor *denom0 = tensor_sqrt(v_hat);
  dt_tensor *denom = dt_add_scalar(denom0, cfg->eps);
  dt_tensor *upd0 = dt_div(m_hat, denom);

  dt_tensor *w = dt_inner(s->value);
  dt_tensor *decay = dt_mul_scalar(w, cfg->weight_decay);
  dt_tensor *upd = dt_add(upd0, decay);
  float scale = cfg->lr;
  if (cfg->kind == OPT_LAMB) {
    float wn = tensor_norm(w), un = tensor_norm(upd);
    float trust = (wn > 0.0f && un > 0.0f) ? wn / un : 1.0f;
    scale *= trust;
  }
  dt_tensor *delta = dt_mul_scalar(upd, scale);
  dt_tensor *w_new = dt_sub(w, delta);

  dt_free(s->value);
  s->value = dt_require_grad(dt_from_inner(train, w_new));
  dt_free(s->m);
  dt_free(s->v);
  s->m = m_new;
  s->v = v_new;

  dt_tensor *tmp[] = {g, m_old, g_part, g2, v_old, g2_part, m_hat, v_hat, denom0,
                      denom, upd0, w, decay, upd, delta, w_new};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return 1;
}

static void make_batch(dt_device d, int step, dt_tensor **x, dt_tensor **y) {
  float xs[BATCH * D_IN], ys[BATCH * D_OUT];
  for (int i = 0; i < BATCH; i++) {
    for (int j = 0; j < D_IN; j++) xs[i * D_IN + j] = (float)((i * 7 + j * 3 + step) % 11) / 11.0f;
    ys[i * D_OUT + 0] = xs[i * D_IN + 0] - xs[i * D_IN + 1];
    ys[i * D_OUT + 1] = 0.5f * xs[i * D_IN + 2];
  }
  *x = dt_from_floats(d, xs, 2, (const int64_t[]){BATCH, D_IN});
  *y = dt_from_floats(d, ys, 2, (const int64_t[]){BATCH, D_OUT});
}

static float train_step(mlp *m, optim_cfg *cfg, int step) {
  dt_tensor *x, *y;
  make_batch(m->train, step, &x, &y);
  dt_tensor *w[N_PARAMS];
  for (int i = 0; i < N_PARAMS; i++) w[i] = m->p[i].value;
  dt_tensor *pred = mlp_apply(w, x);
  dt_tensor *loss = dt_mse_loss(pred, y);
  float lv = read_scalar(loss);
  dt_backward(loss);
  cfg->step++;
  int updated = 0;
  for (int i = 0; i < N_PARAMS; i++) updated += slot_step(&m->p[i], m->train, cfg);
  if (updated != N_PARAMS) fprintf(stderr, "step %d: only %d params got gradients\n", step, updated);
  dt_free(x);
  dt_free(y);
  dt_free(pred);
  dt_free(loss);
  return lv;
}

/* Evaluation on the host, on plain copies of the inner weights. */
static float evaluate_on_host(const mlp *m) {
  dt_device host = dt_cpu();
  dt_tensor *w[N_PARAMS];
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *inner = dt_inner(m->p[i].value);
    w[i] = dt_to_device(inner, host);
    dt_free(inner);
  }
  dt_tensor *x, *y;
  make_batch(host, 99, &x, &y);
  dt_tensor *pred = mlp_apply(w, x);
  dt_tensor *loss = dt_mse_loss(pred, y);
  float lv = read_scalar(loss);
  for (int i = 0; i < N_PARAMS; i++) dt_free(w[i]);
  dt_free(x);
  dt_free(y);
  dt_free(pred);
  dt_free(loss);
  return lv;
}

int main(int argc, char **argv) {
  dt_device base = parse_device(argc > 1 ? argv[1] : NULL);
  const char *opt = argc > 2 ? argv[2] : "lamb";
  optim_cfg cfg = {strcmp(opt, "adam") == 0 ? OPT_ADAM : OPT_LAMB, 0.01f, 0.9f, 0.999f, 1e-8f,
                   0.01f, 0};
  mlp model;
  mlp_init(&model, dt_autodiff(base));
  char name[32];
  dt_device_name(model.train, name, sizeof name);
  float first = 0.0f, last = 0.0f;
  for (int step = 0; step < STEPS; step++) {
    last = train_step(&model, &cfg, step);
    if (step == 0) first = last;
  }
  float eval = evaluate_on_host(&model);
  printf("%s on %s: loss %.4f -> %.4f, host eval %.4f\n", cfg.kind == OPT_ADAM ? "adam" : "lamb",
         name, first, last, eval);
  mlp_free(&model);
  return isfinite(eval) ? 0 : 1;
}
