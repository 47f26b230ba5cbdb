// provenance: blind round d11
// run-args: --epochs 2 --eval-device sim1
// Trains a small regressor on autodiff<sim:0>, snapshots it to a host checkpoint, then
// restores the checkpoint onto an evaluation device and scores a held-out set.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D_IN 5
#define D_HID 6
#define N_TRAIN 24
#define N_EVAL 8
#define N_PARAMS 4

typedef struct {
  dt_device train_dev;   /* plain device under the autodiff wrapper */
  dt_device eval_dev;
  int epochs;
  float lr;
  const char *tag;
} config;

typedef struct {
  dt_tensor *p[N_PARAMS];   /* w1, b1, w2, b2 */
} net;

typedef struct {
  dt_tensor *p[N_PARAMS];   /* plain tensors on the host */
  int epoch;
  float loss;
} checkpoint;

static const int64_t SHAPES[N_PARAMS][2] = {{D_IN, D_HID}, {1, D_HID}, {D_HID, 1}, {1, 1}};

static void config_defaults(config *c) {
  c->train_dev = dt_sim(0);
  c->eval_dev = dt_sim(0);
  c->epochs = 4;
  c->lr = 0.03f;
  c->tag = "run";
}

static void config_parse(config *c, int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--epochs")) c->epochs = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--tag")) c->tag = argv[i + 1];
    else if (!strcmp(argv[i], "--eval-device")) {
      if (!strcmp(argv[i + 1], "sim1")) c->eval_dev = dt_sim(1);
      else c->eval_dev = dt_sim(0);
    }
  }
  if (c->epochs < 1) c->epochs = 1;
}

static void net_init(net *n, dt_device ad) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *r = dt_randn(dt_inner_device(ad), 40 + (uint64_t)i, 2, SHAPES[i]);
    dt_tensor *s = dt_mul_scalar(r, i % 2 ? 0.0f : 0.4f);
    n->p[i] = dt_require_grad(dt_from_inner(ad, s));
    dt_free(r); dt_free(s);
  }
}

static void net_free(net *n) { for (int i = 0; i < N_PARAMS; i++) dt_free(n->p[i]); }

/* works for plain and autodiff parameters alike */
static dt_tensor *forward(dt_tensor *const *p, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, p[0]); // expect-warning: device-mismatch
  dt_tensor *hb = dt_add(h, p[1]);
  dt_tensor *a = dt_sigmoid(hb);
  dt_tensor *o = dt_matmul(a, p[2]);
  dt_tensor *y = dt_add(o, p[3]);
  dt_free(h); dt_free(hb); dt_free(a); dt_free(o);
  return y;
}

static void make_data(float *x, float *y, int n, int offset) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < D_IN; j++) {
      float v = (float)(((i + offset) * 31 + j * 17) % 23) / 23.0f;
      x[i * D_IN + j] = v;
      s += (j % 2 ? -v : v);
    }
    y[i] = s * 0.5f;
  }
}

static void checkpoint_save(checkpoint *ck, const net *n, int epoch, float loss) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *in = dt_inner(n->p[i]);
    dt_free(ck->p[i]);
    ck->p[i] = dt_to_device(in, dt_cpu());
    dt_free(in);
  }
  ck->epoch = epoch;
  ck->loss = loss;
}

static void checkpoint_restore(const checkpoint *ck, dt_tensor **out, dt_device d) {
  for (int i = 0; i < N_PARAMS; i++) out[i] = dt_to_device(ck->p[i], d);
}

static float scalar(const dt_tensor *t, int tracked) {
  float v = 0.0f;
  if (tracked) {
    dt_tensor *in = dt_inner(t);
    dt_read_floats(in, &v, 1);
    dt_free(in);
  } else {
    dt_read_floats(t, &v, 1);
  }
  return v;
}

int main(int argc, char **argv) {
  config cfg;
  config_defaults(&cfg);
  config_parse(&cfg, argc, argv);
  dt_device ad = dt_autodiff(cfg.train_dev);

  float xtr[N_TRAIN * D_IN], ytr[N_TRAIN];
  float xev[N_EVAL * D_IN], yev[N_EVAL];
  make_data(xtr, ytr, N_TRAIN, 0);
  make_data(xev, yev, N_EVAL, 1000);
  int64_t xs[2] = {N_TRAIN, D_IN}, ys[2] = {N_TRAIN, 1};
  int64_t exs[2] = {N_EVAL, D_IN}, eys[2] = {N_EVAL, 1};

  net model;
  net_init(&model, ad);
  checkpoint best = {{NULL}, -1, 1e30f};
  dt_tensor *x = dt_from_floats(ad, xtr, 2, xs);
  dt_tensor *y = dt_from_floats(ad, ytr, 2, ys);

  for (int e = 0; e < cfg.epochs; e++) {
    dt_tensor *pred = forward(model.p, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    float lv = scalar(loss, 1);
    for (int i = 0; i < N_PARAMS; i++) {
      dt_tensor *g = dt_grad(model.p[i]);
      if (!g) continue;
      dt_tensor *in = dt_inner(model.p[i]);
      dt_tensor *st = dt_mul_scalar(g, cfg.lr);
      dt_tensor *nx = dt_sub(in, st);
      dt_free(model.p[i]);
      model.p[i] = dt_require_grad(dt_from_inner(ad, nx));
      dt_free(g); dt_free(in); dt_free(st); dt_free(nx);
    }
    if (lv < best.loss) checkpoint_save(&best, &model, e, lv);
    printf("[%s] epoch %d loss %.5f\n", cfg.tag, e, lv);
    dt_free(pred); dt_free(loss);
  }
  dt_free(x); dt_free(y);

  /* evaluation: restore the best checkpoint, no autodiff */
  dt_tensor *ev[N_PARAMS];
  checkpoint_restore(&best, ev, cfg.eval_dev);
  dt_tensor *xe = dt_from_floats(cfg.train_dev, xev, 2, exs);
  dt_tensor *ye = dt_from_floats(cfg.train_dev, yev, 2, eys);
  dt_tensor *pe = forward(ev, xe);
  dt_tensor *le = dt_mse_loss(pe, ye);
  printf("[%s] best epoch %d, eval loss %.5f\n", cfg.tag, best.epoch, scalar(le, 0));
  dt_free(le); dt_free(pe); dt_free(xe); dt_free(ye);
  for (int i = 0; i < N_PARAMS; i++) { dt_free(ev[i]); dt_free(best.p[i]); }
  net_free(&model);
  return 0;
}
