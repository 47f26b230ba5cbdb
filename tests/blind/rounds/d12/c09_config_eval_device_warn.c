// provenance: blind round d12
// run-args: --epochs 6 --eval-on sim1 --log 2
/* Ridge-style regression with a config struct filled from argv. Training happens on
 * autodiff<sim:0>; evaluation batches are staged on cfg.eval.device ("sim0" default, or
 * "sim1" to keep the training accelerator free), and the evaluator runs the plain weights. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEAT 7
#define BATCH 9

typedef enum { LOG_QUIET = 0, LOG_EPOCH = 1, LOG_STEP = 2 } log_level;

typedef struct {
  struct {
    dt_device device;
    float lr;
    int epochs;
    int steps_per_epoch;
  } train;
  struct {
    dt_device device;
    int batches;
  } eval;
  log_level log;
} config_t;

typedef struct {
  dt_tensor *w;  /* [FEAT,1] autodiff */
  dt_tensor *b;  /* [1]       autodiff */
  dt_device ad;
} linreg_t;

static void config_defaults(config_t *c) {
  c->train.device = dt_sim(0);
  c->train.lr = 0.1f;
  c->train.epochs = 4;
  c->train.steps_per_epoch = 5;
  c->eval.device = dt_sim(0);
  c->eval.batches = 3;
  c->log = LOG_EPOCH;
}

static int config_parse(config_t *c, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--epochs") && v) { c->train.epochs = atoi(v); i++; }
    else if (!strcmp(a, "--lr") && v) { c->train.lr = (float)atof(v); i++; }
    else if (!strcmp(a, "--eval-on") && v) {
      if (!strcmp(v, "sim1")) c->eval.device = dt_sim(1);
      else c->eval.device = dt_sim(0);
      i++;
    } else if (!strcmp(a, "--log") && v) { c->log = (log_level)atoi(v); i++; }
    else { fprintf(stderr, "unknown option %s\n", a); return -1; }
  }
  return 0;
}

static void linreg_init(linreg_t *m, const config_t *c) {
  int64_t ws[2] = {FEAT, 1}, bs[1] = {1};
  m->ad = dt_autodiff(c->train.device);
  dt_tensor *r = dt_randn(c->train.device, 31, 2, ws);
  dt_tensor *rs = dt_mul_scalar(r, 0.1f);
  m->w = dt_require_grad(dt_from_inner(m->ad, rs));
  m->b = dt_require_grad(dt_zeros(m->ad, DT_FLOAT, 1, bs));
  dt_free(r);
  dt_free(rs);
}

static void gen(float *x, float *y, int seed) {
  for (int i = 0; i < BATCH; i++) {
    float t = 1.0f;
    for (int j = 0; j < FEAT; j++) {
      float v = (float)(((i + seed) * 13 + j * 5) % 10) / 5.0f - 1.0f;
      x[i * FEAT + j] = v;
      t += v * (j % 3 == 0 ? 0.7f : -0.2f);
    }
    y[i] = t;
  }
}

static float train_step(linreg_t *m, const config_t *c, int seed) {
  float x[BATCH * FEAT], y[BATCH];
  int64_t xs[2] = {BATCH, FEAT}, ys[2] = {BATCH, 1};
  gen(x, y, seed);
  dt_tensor *xt = dt_from_floats(m->ad, x, 2, xs);
  dt_tensor *yt = dt_from_floats(m->ad, y, 2, ys);
  dt_tensor *h = dt_matmul(xt, m->w);
  dt_tensor *o = dt_add(h, m->b);
  dt_tensor *mse = dt_mse_loss(o, yt);
  dt_tensor *w2 = dt_mul(m->w, m->w);
  dt_tensor *reg = dt_sum(w2);
  dt_tensor *regs = dt_mul_scalar(reg, 1e-3f);
  dt_tensor *loss = dt_add(mse, regs);
  float lv = 0.0f;
  dt_read_floats(mse, &lv, 1);
  dt_backward(loss);
  dt_tensor **ps[2] = {&m->w, &m->b};
  for (int k = 0; k < 2; k++) {
    dt_tensor *g = dt_grad(*ps[k]);
    if (!g) continue;
    dt_tensor *cur = dt_inner(*ps[k]);
    dt_tensor *st = dt_mul_scalar(g, c->train.lr);
    dt_tensor *nx = dt_sub(cur, st);
    dt_free(*ps[k]);
    *ps[k] = dt_require_grad(dt_from_inner(m->ad, nx));
    dt_free(g); dt_free(cur); dt_free(st); dt_free(nx);
  }
  dt_tensor *tmp[] = {xt, yt, h, o, mse, w2, reg, regs, loss};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return lv;
}

static float evaluate(const linreg_t *m, const config_t *c) {
  dt_tensor *w = dt_inner(m->w);
  dt_tensor *b = dt_inner(m->b);
  float total = 0.0f;
  float x[BATCH * FEAT], y[BATCH];
  int64_t xs[2] = {BATCH, FEAT}, ys[2] = {BATCH, 1};
  for (int i = 0; i < c->eval.batches; i++) {
    gen(x, y, 1000 + i);
    dt_tensor *xt = dt_from_floats(c->eval.device, x, 2, xs);
    dt_tensor *yt = dt_from_floats(c->eval.device, y, 2, ys);
    dt_tensor *h = dt_matmul(xt, w); // expect-warning: device-mismatch
    dt_tensor *o = dt_add(h, b);
    dt_tensor *l = dt_mse_loss(o, yt);
    float lv = 0.0f;
    if (l && dt_read_floats(l, &lv, 1) == 0) total += lv;
    dt_free(xt); dt_free(yt); dt_free(h); dt_free(o); dt_free(l);
  }
  dt_free(w);
  dt_free(b);
  return total / c->eval.batches;
}

int main(int argc, char **argv) {
  config_t cfg;
  config_defaults(&cfg);
  if (config_parse(&cfg, argc, argv) != 0) return 2;
  linreg_t model;
  linreg_init(&model, &cfg);
  for (int e = 0; e < cfg.train.epochs; e++) {
    float last = 0.0f;
    for (int s = 0; s < cfg.train.steps_per_epoch; s++) {
      last = train_step(&model, &cfg, e * 100 + s);
      switch (cfg.log) {
        case LOG_STEP:
          printf("  epoch %d step %d loss %.4f\n", e, s, last);
          break;
        case LOG_EPOCH:
        case LOG_QUIET:
        default:
          break;
      }
    }
    if (cfg.log >= LOG_EPOCH) printf("epoch %d loss %.4f\n", e, last);
  }
  printf("eval loss %.4f\n", evaluate(&model, &cfg));
  dt_free(model.w);
  dt_free(model.b);
  return 0;
}
