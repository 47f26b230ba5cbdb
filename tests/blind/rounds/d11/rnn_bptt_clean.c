// provenance: blind round d11
// Elman RNN trained with truncated backprop-through-time on a sine sequence; the hidden state
// is carried across chunks (detached at chunk boundaries). Evaluation runs a plain, untracked
// copy of the weights. RNN_DEVICE=cpu|sim0|sim1 picks the device.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define HIDDEN 6
#define SEQ_LEN 48
#define CHUNK 8

typedef struct {
  dt_tensor *wx;   /* [1, H] */
  dt_tensor *wh;   /* [H, H] */
  dt_tensor *bh;   /* [1, H] */
  dt_tensor *wy;   /* [H, 1] */
} rnn_params;

typedef struct {
  dt_device ad;
  rnn_params p;
  float lr;
  float clip;
} rnn_trainer;

static dt_device env_device(void) {
  const char *s = getenv("RNN_DEVICE");
  if (s && !strcmp(s, "cpu")) return dt_cpu();
  if (s && !strcmp(s, "sim1")) return dt_sim(1);
  return dt_sim(0);
}

static dt_tensor *init_param(dt_device ad, uint64_t seed, int64_t r, int64_t c, float sc) {
  int64_t s[2] = {r, c};
  dt_tensor *raw = dt_randn(dt_inner_device(ad), seed, 2, s);
  dt_tensor *v = dt_mul_scalar(raw, sc);
  dt_tensor *p = dt_require_grad(dt_from_inner(ad, v));
  dt_free(raw); dt_free(v);
  return p;
}

static void trainer_init(rnn_trainer *t, dt_device inner) {
  t->ad = dt_autodiff(inner);
  t->p.wx = init_param(t->ad, 1, 1, HIDDEN, 0.5f);
  t->p.wh = init_param(t->ad, 2, HIDDEN, HIDDEN, 0.2f);
  t->p.bh = init_param(t->ad, 3, 1, HIDDEN, 0.0f);
  t->p.wy = init_param(t->ad, 4, HIDDEN, 1, 0.5f);
  t->lr = 0.05f;
  t->clip = 1.0f;
}

/* one cell step; works on plain or tracked tensors as long as they agree */
static dt_tensor *cell(const rnn_params *p, const dt_tensor *x, const dt_tensor *h) {
  dt_tensor *a = dt_matmul(x, p->wx);
  dt_tensor *b = dt_matmul(h, p->wh);
  dt_tensor *ab = dt_add(a, b);
  dt_tensor *z = dt_add(ab, p->bh);
  dt_tensor *hn = dt_tanh(z);
  dt_free(a); dt_free(b); dt_free(ab); dt_free(z);
  return hn;
}

static void step_param(rnn_trainer *t, dt_tensor **p) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  /* crude clipping: squash the gradient through tanh */
  dt_tensor *gc = dt_tanh(g);
  dt_tensor *st = dt_mul_scalar(gc, t->lr * t->clip);
  dt_tensor *in = dt_inner(*p);
  dt_tensor *nx = dt_sub(in, st);
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(t->ad, nx));
  dt_free(g); dt_free(gc); dt_free(st); dt_free(in); dt_free(nx);
}

static void trainer_step(rnn_trainer *t) {
  step_param(t, &t->p.wx);
  step_param(t, &t->p.wh);
  step_param(t, &t->p.bh);
  step_param(t, &t->p.wy);
}

static float seq_value(int i) { return sinf(0.3f * (float)i); }

static float read1(const dt_tensor *t) {
  float v = 0.0f;
  dt_read_floats(t, &v, 1);
  return v;
}

static float train_epoch(rnn_trainer *t) {
  int64_t hs[2] = {1, HIDDEN}, xs[2] = {1, 1};
  dt_tensor *h = dt_zeros(t->ad, DT_FLOAT, 2, hs);
  float total = 0.0f;
  int chunks = 0;
  for (int start = 0; start + CHUNK < SEQ_LEN; start += CHUNK) {
    dt_tensor *loss_acc = NULL;
    for (int k = 0; k < CHUNK; k++) {
      float xv = seq_value(start + k), yv = seq_value(start + k + 1);
      dt_tensor *x = dt_from_floats(t->ad, &xv, 2, xs);
      dt_tensor *y = dt_from_floats(t->ad, &yv, 2, xs);
      dt_tensor *hn = cell(&t->p, x, h);
      dt_free(h);
      h = hn;
      dt_tensor *pred = dt_matmul(h, t->p.wy);
      dt_tensor *l = dt_mse_loss(pred, y);
      if (!loss_acc) {
        loss_acc = l;
      } else {
        dt_tensor *s = dt_add(loss_acc, l);
        dt_free(loss_acc); dt_free(l);
        loss_acc = s;
      }
      dt_free(x); dt_free(y); dt_free(pred);
    }
    dt_tensor *loss = dt_mul_scalar(loss_acc, 1.0f / CHUNK);
    dt_backward(loss);
    dt_tensor *plain = dt_inner(loss);
    total += read1(plain);
    chunks++;
    trainer_step(t);
    /* truncate: keep the value, drop the history */
    dt_tensor *hd = dt_detach(h);
    dt_free(h);
    h = hd;
    dt_free(plain); dt_free(loss); dt_free(loss_acc);
  }
  dt_free(h);
  return total / (float)chunks;
}

/* free-running evaluation with plain copies of the weights */
static float evaluate(const rnn_trainer *t) {
  rnn_params ev = {dt_inner(t->p.wx), dt_inner(t->p.wh), dt_inner(t->p.bh), dt_inner(t->p.wy)};
  dt_device d = dt_inner_device(t->ad);
  int64_t hs[2] = {1, HIDDEN}, xs[2] = {1, 1};
  dt_tensor *h = dt_zeros(d, DT_FLOAT, 2, hs);
  float err = 0.0f;
  for (int i = 0; i < SEQ_LEN; i++) {
    float xv = seq_value(i);
    dt_tensor *x = dt_from_floats(d, &xv, 2, xs);
    dt_tensor *hn = cell(&ev, x, h);
    dt_free(h);
    h = hn;
    dt_tensor *pred = dt_matmul(h, ev.wy);
    float pv = read1(pred);
    float dv = pv - seq_value(i + 1);
    err += dv * dv;
    dt_free(pred); dt_free(x);
  }
  dt_free(h);
  dt_free(ev.wx); dt_free(ev.wh); dt_free(ev.bh); dt_free(ev.wy);
  return err / SEQ_LEN;
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 5;
  if (epochs < 1 || epochs > 100) epochs = 5;
  rnn_trainer tr;
  trainer_init(&tr, env_device());
  char name[32];
  dt_device_name(tr.ad, name, sizeof name);
  printf("device %s\n", name);
  float e0 = evaluate(&tr);
  for (int e = 0; e < epochs; e++) {
    float l = train_epoch(&tr);
    if (e == 0 || e == epochs - 1) printf("epoch %d: loss %.5f\n", e, l);
  }
  float e1 = evaluate(&tr);
  printf("free-run mse %.5f -> %.5f\n", e0, e1);
  dt_free(tr.p.wx); dt_free(tr.p.wh); dt_free(tr.p.bh); dt_free(tr.p.wy);
  return 0;
}
