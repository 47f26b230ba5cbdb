// provenance: blind round d12
// run-args: --act tanh --opt signsgd
/* A small classifier whose activation and optimizer come from function-pointer tables
 * selected on the command line. Runs on autodiff<cpu>. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 4
#define HID 8
#define OUT 2
#define BATCH 8
#define WEIGHT_DECAY 1e-4f

typedef dt_tensor *(*act_fn)(const dt_tensor *);
typedef void (*opt_fn)(dt_tensor **param, dt_device ad, float lr, float wd);

typedef struct {
  const char *name;
  act_fn fn;
} act_entry;

static dt_tensor *act_identity(const dt_tensor *x) { return dt_mul_scalar(x, 1.0f); }

static const act_entry ACTS[] = {
    {"relu", dt_relu}, {"tanh", dt_tanh}, {"sigmoid", dt_sigmoid}, {"none", act_identity},
};

/* gradient plus L2 penalty wd * w (skipped when wd == 0) */
static dt_tensor *regularized_grad(dt_tensor *param, float wd) {
  dt_tensor *g = dt_grad(param);
  if (!g || wd == 0.0f) return g;
  dt_tensor *decay = dt_mul_scalar(param, wd);
  dt_tensor *g_total = dt_add(g, decay); // expect-error: autodiff-expected
  dt_free(g);
  dt_free(decay);
  return g_total;
}

static void opt_sgd(dt_tensor **param, dt_device ad, float lr, float wd) {
  dt_tensor *g = regularized_grad(*param, wd);
  if (!g) return;
  dt_tensor *in = dt_inner(*param);
  dt_tensor *st = dt_mul_scalar(g, lr);
  dt_tensor *nx = dt_sub(in, st);
  dt_free(*param);
  *param = dt_require_grad(dt_from_inner(ad, nx));
  dt_free(g); dt_free(in); dt_free(st); dt_free(nx);
}

/* sign-SGD: robust to badly scaled gradients */
static void opt_signsgd(dt_tensor **param, dt_device ad, float lr, float wd) {
  dt_tensor *g = regularized_grad(*param, wd);
  if (!g) return;
  dt_tensor *sc = dt_mul_scalar(g, 1000.0f);
  dt_tensor *sg = dt_tanh(sc);
  dt_tensor *in = dt_inner(*param);
  dt_tensor *st = dt_mul_scalar(sg, lr * 0.1f);
  dt_tensor *nx = dt_sub(in, st);
  dt_free(*param);
  *param = dt_require_grad(dt_from_inner(ad, nx));
  dt_free(g); dt_free(sc); dt_free(sg); dt_free(in); dt_free(st); dt_free(nx);
}

typedef struct {
  const char *name;
  opt_fn fn;
} opt_entry;

static const opt_entry OPTS[] = {{"sgd", opt_sgd}, {"signsgd", opt_signsgd}};

typedef struct {
  dt_tensor *params[4]; /* w1 b1 w2 b2 */
  act_fn act;
  opt_fn opt;
  dt_device dev;
} net_t;

static act_fn find_act(const char *name) {
  for (size_t i = 0; i < sizeof ACTS / sizeof ACTS[0]; i++)
    if (strcmp(ACTS[i].name, name) == 0) return ACTS[i].fn;
  return ACTS[0].fn;
}

static opt_fn find_opt(const char *name) {
  for (size_t i = 0; i < sizeof OPTS / sizeof OPTS[0]; i++)
    if (strcmp(OPTS[i].name, name) == 0) return OPTS[i].fn;
  return OPTS[0].fn;
}

static void net_init(net_t *n, dt_device ad, act_fn act, opt_fn opt) {
  int64_t s1[2] = {IN, HID}, s2[1] = {HID}, s3[2] = {HID, OUT}, s4[1] = {OUT};
  n->dev = ad;
  n->act = act;
  n->opt = opt;
  n->params[0] = dt_require_grad(dt_randn(ad, 1, 2, s1));
  n->params[1] = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, s2));
  n->params[2] = dt_require_grad(dt_randn(ad, 2, 2, s3));
  n->params[3] = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, s4));
}

static dt_tensor *net_forward(const net_t *n, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, n->params[0]);
  dt_tensor *hb = dt_add(h, n->params[1]);
  dt_tensor *ha = n->act(hb);
  dt_tensor *o = dt_matmul(ha, n->params[2]);
  dt_tensor *ob = dt_add(o, n->params[3]);
  dt_tensor *p = dt_sigmoid(ob);
  dt_free(h); dt_free(hb); dt_free(ha); dt_free(o); dt_free(ob);
  return p;
}

static void load_batch(float *x, float *y, int it) {
  for (int i = 0; i < BATCH; i++) {
    float s = 0.0f;
    for (int j = 0; j < IN; j++) {
      float v = (float)(((i + 1) * (j + 3) + it) % 9) / 4.5f - 1.0f;
      x[i * IN + j] = v;
      s += v;
    }
    y[i * OUT + 0] = s > 0.0f ? 1.0f : 0.0f;
    y[i * OUT + 1] = s > 0.0f ? 0.0f : 1.0f;
  }
}

static float accuracy(const net_t *n, const float *x, const float *y) {
  int64_t xs[2] = {BATCH, IN};
  dt_tensor *xt = dt_from_floats(n->dev, x, 2, xs);
  dt_tensor *xd = dt_detach(xt);
  dt_tensor *p = net_forward(n, xd);
  float out[BATCH * OUT];
  int correct = 0;
  if (dt_read_floats(p, out, BATCH * OUT) == 0) {
    for (int i = 0; i < BATCH; i++) {
      int pred = out[i * OUT] > out[i * OUT + 1] ? 0 : 1;
      int lab = y[i * OUT] > 0.5f ? 0 : 1;
      correct += pred == lab;
    }
  }
  dt_free(xt); dt_free(xd); dt_free(p);
  return (float)correct / BATCH;
}

int main(int argc, char **argv) {
  const char *act_name = "relu", *opt_name = "sgd";
  int epochs = 25;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--act") == 0 && i + 1 < argc) act_name = argv[++i];
    else if (strcmp(argv[i], "--opt") == 0 && i + 1 < argc) opt_name = argv[++i];
    else if (strcmp(argv[i], "--epochs") == 0 && i + 1 < argc) epochs = atoi(argv[++i]);
  }
  dt_device ad = dt_autodiff(dt_cpu());
  net_t net;
  net_init(&net, ad, find_act(act_name), find_opt(opt_name));
  printf("act=%s opt=%s\n", act_name, opt_name);

  float x[BATCH * IN], y[BATCH * OUT];
  int64_t xs[2] = {BATCH, IN}, ys[2] = {BATCH, OUT};
  for (int e = 0; e < epochs; e++) {
    load_batch(x, y, e);
    dt_tensor *xt = dt_from_floats(ad, x, 2, xs);
    dt_tensor *yt = dt_from_floats(ad, y, 2, ys);
    dt_tensor *p = net_forward(&net, xt);
    dt_tensor *loss = dt_mse_loss(p, yt);
    dt_backward(loss);
    for (int k = 0; k < 4; k++) net.opt(&net.params[k], ad, 0.5f, WEIGHT_DECAY);
    dt_free(xt); dt_free(yt); dt_free(p); dt_free(loss);
  }
  load_batch(x, y, 999);
  printf("accuracy %.2f\n", accuracy(&net, x, y));
  for (int k = 0; k < 4; k++) dt_free(net.params[k]);
  return 0;
}
