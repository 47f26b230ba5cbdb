// provenance: blind round field6
// A two-layer MLP trained with autodiff on autodiff<sim:0> and a hand-written Adam
// optimizer that keeps its moment estimates in a state table.  Two mistakes:
//  * restoring the EMA weights from a host checkpoint wraps a cpu tensor directly on the
//    autodiff<sim:0> device (the inner tensor must be moved to sim:0 first);
//  * the optimizer allocates its moments on the device of the first parameter, which is the
//    autodiff device, while dt_grad returns plain tensors on sim:0: the first moment
//    updates (first and second moment: two calls) mix a tracked and a plain tensor.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define IN 3
#define HID 4
#define OUT 1
#define ROWS 4
#define MAXP 4
#define STEPS 3

typedef struct mlp {
  dt_device dev;    /* autodiff device */
  dt_tensor *w1, *b1, *w2, *b2;
} mlp;

typedef struct adam {
  dt_device dev;
  float lr, beta1, beta2, eps;
  int t;
  int n;
  dt_tensor *m[MAXP];
  dt_tensor *v[MAXP];
} adam;

typedef struct checkpoint {
  dt_tensor *w1_host;  /* plain cpu tensor, read from "disk" */
} checkpoint;

static const int64_t W1S[2] = {IN, HID};
static const int64_t B1S[1] = {HID};
static const int64_t W2S[2] = {HID, OUT};
static const int64_t B2S[1] = {OUT};
static const int64_t XS[2] = {ROWS, IN};
static const int64_t YS[2] = {ROWS, OUT};

static dt_tensor *param(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return dt_require_grad(t);
}

static void mlp_init(mlp *m, dt_device ad) {
  dt_device in = dt_inner_device(ad);
  m->dev = ad;
  dt_tensor *r1 = dt_randn(in, 3, 2, W1S);
  m->w1 = param(ad, dt_mul_scalar(r1, 0.5f));
  dt_free(r1);
  m->b1 = param(ad, dt_zeros(in, DT_FLOAT, 1, B1S));
  dt_tensor *r2 = dt_randn(in, 4, 2, W2S);
  m->w2 = param(ad, dt_mul_scalar(r2, 0.5f));
  dt_free(r2);
  m->b2 = param(ad, dt_zeros(in, DT_FLOAT, 1, B2S));
}

static dt_tensor ***mlp_params(mlp *m, int *n) {
  static dt_tensor **slots[MAXP];
  slots[0] = &m->w1;
  slots[1] = &m->b1;
  slots[2] = &m->w2;
  slots[3] = &m->b2;
  *n = MAXP;
  return slots;
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w1);
  dt_tensor *hb = dt_add(h, m->b1);
  dt_tensor *a = dt_relu(hb);
  dt_tensor *o = dt_matmul(a, m->w2);
  dt_tensor *ob = dt_add(o, m->b2);
  dt_free(h);
  dt_free(hb);
  dt_free(a);
  dt_free(o);
  return ob;
}

static void load_checkpoint(checkpoint *c) {
  float v[IN * HID];
  for (int i = 0; i < IN * HID; i++)
    v[i] = 0.01f * (float)i;
  c->w1_host = dt_from_floats(dt_cpu(), v, 2, W1S);
}

static dt_tensor *restore_ema(const mlp *m, const checkpoint *c) {
  return dt_from_inner(m->dev, c->w1_host); // expect-error: autodiff-inner-backend
}

static void adam_init(adam *o, mlp *m) {
  memset(o, 0, sizeof *o);
  o->lr = 0.01f;
  o->beta1 = 0.9f;
  o->beta2 = 0.999f;
  o->eps = 1e-8f;
  int n = 0;
  dt_tensor ***ps = mlp_params(m, &n);
  o->n = n;
  o->dev = dt_device_of(*ps[0]);
  for (int i = 0; i < n; i++) {
    const dt_tensor *p = *ps[i];
    int64_t shape[2] = {dt_dim(p, 0), dt_rank(p) > 1 ? dt_dim(p, 1) : 1};
    o->m[i] = dt_zeros(o->dev, DT_FLOAT, dt_rank(p), shape);
    o->v[i] = dt_zeros(o->dev, DT_FLOAT, dt_rank(p), shape);
  }
}

static dt_tensor *adam_update_one(adam *o, int i, dt_tensor *p) {
  dt_tensor *g = dt_grad(p);
  if (g == NULL)
    return p;
  dt_tensor *mb = dt_mul_scalar(o->m[i], o->beta1);
  dt_tensor *gb = dt_mul_scalar(g, 1.0f - o->beta1);
  dt_tensor *m1 = dt_add(mb, gb); // expect-error: autodiff-expected
  dt_tensor *g2 = dt_mul(g, g);
  dt_tensor *vb = dt_mul_scalar(o->v[i], o->beta2);
  dt_tensor *g2b = dt_mul_scalar(g2, 1.0f - o->beta2);
  dt_tensor *v1 = dt_add(vb, g2b); // expect-error: autodiff-expected
  float c1 = 1.0f - powf(o->beta1, (float)o->t);
  float c2 = 1.0f - powf(o->beta2, (float)o->t);
  dt_tensor *mhat = dt_mul_scalar(m1, 1.0f / c1);
  dt_tensor *vhat = dt_mul_scalar(v1, 1.0f / c2);
  dt_tensor *den = dt_add_scalar(vhat, o->eps);
  dt_tensor *ratio = dt_div(mhat, den);
  dt_tensor *step = dt_mul_scalar(ratio, o->lr);
  dt_tensor *inner = dt_inner(p);
  dt_tensor *np = dt_sub(inner, step);
  dt_free(o->m[i]);
  dt_free(o->v[i]);
  o->m[i] = m1;
  o->v[i] = v1;
  dt_tensor *tmp[] = {g, mb, gb, g2, vb, g2b, mhat, vhat, den, ratio, step, inner};
  for (size_t k = 0; k < sizeof tmp / sizeof tmp[0]; k++)
    dt_free(tmp[k]);
  dt_free(p);
  return param(o->dev, np);
}

static void adam_step(adam *o, mlp *m) {
  int n = 0;
  dt_tensor ***ps = mlp_params(m, &n);
  o->t++;
  for (int i = 0; i < n; i++)
    *ps[i] = adam_update_one(o, i, *ps[i]);
}

static void make_data(const mlp *m, dt_tensor **x, dt_tensor **y) {
  float xv[ROWS * IN], yv[ROWS * OUT];
  for (int i = 0; i < ROWS * IN; i++)
    xv[i] = (float)(i % 3) - 1.0f;
  for (int i = 0; i < ROWS; i++)
    yv[i] = (float)i * 0.25f;
  dt_device in = dt_inner_device(m->dev);
  dt_tensor *xp = dt_from_floats(in, xv, 2, XS);
  dt_tensor *yp = dt_from_floats(in, yv, 2, YS);
  *x = dt_from_inner(m->dev, xp);
  *y = dt_from_inner(m->dev, yp);
  dt_free(xp);
  dt_free(yp);
}

int main(void) {
  mlp m;
  mlp_init(&m, dt_autodiff(dt_sim(0)));
  checkpoint ck;
  load_checkpoint(&ck);
  dt_tensor *ema = restore_ema(&m, &ck);

  adam opt;
  adam_init(&opt, &m);
  dt_tensor *x, *y;
  make_data(&m, &x, &y);
  for (int s = 0; s < STEPS; s++) {
    dt_tensor *pred = mlp_forward(&m, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    printf("step %d loss %.5f\n", s, (double)lv);
    dt_backward(loss);
    adam_step(&opt, &m);
    dt_free(pred);
    dt_free(loss);
  }
  dt_free(x);
  dt_free(y);
  dt_free(ema);
  dt_free(ck.w1_host);
  dt_free(m.w1);
  dt_free(m.b1);
  dt_free(m.w2);
  dt_free(m.b2);
  for (int i = 0; i < opt.n; i++) {
    dt_free(opt.m[i]);
    dt_free(opt.v[i]);
  }
  return 0;
}
