// provenance: blind round d16
// c06: an encoder/decoder regressor fine-tuned on autodiff<sim:1>. With FREEZE_ENCODER=1 in
// the environment the encoder is frozen: its output is cut from the graph before the
// decoder sees it, and only the decoder is updated. The cut takes the primitive out of the
// autodiff tensor instead of detaching it.
// run-env: FREEZE_ENCODER=1
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B 4
#define D_IN 6
#define D_LAT 3
#define D_OUT 2
#define STEPS 5

typedef struct dense {
  dt_tensor *w, *b;
} dense;

typedef struct encdec {
  dt_device dev;
  dense enc1, enc2, dec;
  int freeze_encoder;
} encdec;

typedef struct sgd {
  float lr;
  float weight_decay;
  int updates;
} sgd;

static void dense_init(dense *d, dt_device dev, int64_t in, int64_t out, uint64_t seed) {
  dt_tensor *w = dt_randn(dev, seed, 2, (const int64_t[]){in, out});
  d->w = dt_require_grad(dt_mul_scalar(w, 0.5f));
  d->b = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){out}));
  dt_free(w);
}

static void dense_free(dense *d) {
  dt_free(d->w);
  dt_free(d->b);
}

static dt_tensor *dense_apply(const dense *d, const dt_tensor *x, int act) {
  dt_tensor *z = dt_matmul(x, d->w);
  dt_tensor *zb = dt_add(z, d->b);
  dt_free(z);
  if (!act)
    return zb;
  dt_tensor *a = dt_tanh(zb);
  dt_free(zb);
  return a;
}

static int env_flag(const char *name) {
  const char *v = getenv(name);
  return v && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "yes") == 0);
}

static void encdec_init(encdec *m, dt_device dev) {
  m->dev = dev;
  dense_init(&m->enc1, dev, D_IN, 5, 11);
  dense_init(&m->enc2, dev, 5, D_LAT, 12);
  dense_init(&m->dec, dev, D_LAT, D_OUT, 13);
  m->freeze_encoder = env_flag("FREEZE_ENCODER");
}

static void encdec_free(encdec *m) {
  dense_free(&m->enc1);
  dense_free(&m->enc2);
  dense_free(&m->dec);
}

/* Latent codes; when the encoder is frozen no gradient must reach enc1/enc2. */
static dt_tensor *encode(const encdec *m, const dt_tensor *x) {
  dt_tensor *h = dense_apply(&m->enc1, x, 1);
  dt_tensor *z = dense_apply(&m->enc2, h, 1);
  dt_free(h);
  if (m->freeze_encoder) {
    dt_tensor *cut = dt_inner(z);
    dt_free(z);
    return cut;
  }
  return z;
}

static dt_tensor *decode(const encdec *m, const dt_tensor *z) {
  dt_tensor *y = dt_matmul(z, m->dec.w); // expect-warning: autodiff-expected
  dt_tensor *yb = dt_add(y, m->dec.b);
  dt_free(y);
  return yb;
}

static void update_param(dt_tensor **p, const sgd *o, dt_device dev) {
  dt_tensor *g = dt_grad(*p);
  if (!g)
    return; /* frozen or unused: nothing reached it */
  dt_tensor *inner = dt_inner(*p);
  dt_tensor *decay = dt_mul_scalar(inner, o->weight_decay);
  dt_tensor *full = dt_add(g, decay);
  dt_tensor *stepv = dt_mul_scalar(full, o->lr);
  dt_tensor *next = dt_sub(inner, stepv);
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(dev, next));
  dt_free(g);
  dt_free(inner);
  dt_free(decay);
  dt_free(full);
  dt_free(stepv);
}

static void sgd_apply(sgd *o, encdec *m) {
  dense *layers[3] = {&m->enc1, &m->enc2, &m->dec};
  int first = m->freeze_encoder ? 2 : 0;
  for (int i = first; i < 3; i++) {
    update_param(&layers[i]->w, o, m->dev);
    update_param(&layers[i]->b, o, m->dev);
  }
  o->updates++;
}

static void fill(int step, float *x, float *y) {
  for (int r = 0; r < B; r++) {
    float a = 0.0f, c = 0.0f;
    for (int k = 0; k < D_IN; k++) {
      float v = (float)((step * 17 + r * 5 + k * 7) % 13) / 13.0f - 0.5f;
      x[r * D_IN + k] = v;
      if (k % 2)
        a += v;
      else
        c += v;
    }
    y[r * D_OUT] = a;
    y[r * D_OUT + 1] = c;
  }
}

static dt_tensor *upload(dt_device ad, const float *h, int64_t rows, int64_t cols) {
  dt_tensor *t = dt_from_floats(dt_inner_device(ad), h, 2, (const int64_t[]){rows, cols});
  return dt_from_inner(ad, t);
}

static float loss_value(const dt_tensor *loss) {
  float v = -1.0f;
  dt_read_floats(loss, &v, 1);
  return v;
}

int main(void) {
  encdec m;
  encdec_init(&m, dt_autodiff(dt_sim(1)));
  sgd opt = {0.1f, 1e-4f, 0};
  float losses[STEPS];
  for (int s = 0; s < STEPS; s++) {
    float xs[B * D_IN], ys[B * D_OUT];
    fill(s, xs, ys);
    dt_tensor *x = upload(m.dev, xs, B, D_IN);
    dt_tensor *y = upload(m.dev, ys, B, D_OUT);
    dt_tensor *z = encode(&m, x);
    dt_tensor *pred = decode(&m, z);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    sgd_apply(&opt, &m);
    losses[s] = loss_value(loss);
    dt_free(x);
    dt_free(y);
    dt_free(z);
    dt_free(pred);
    dt_free(loss);
  }
  printf("%s encoder, %d updates, loss %.4f -> %.4f\n", m.freeze_encoder ? "frozen" : "trained",
         opt.updates, losses[0], losses[STEPS - 1]);
  encdec_free(&m);
  return 0;
}
