// provenance: blind round d12
/* Linear regression trained with Adam on autodiff<sim:0>. Halfway through, the run
 * checkpoints parameters and Adam moments to host memory (cpu), frees the device copies,
 * and resumes from the checkpoint as a preemptible job would. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define FEAT 6
#define BATCH 10

typedef struct {
  dt_tensor *m, *v;   /* first / second moments: plain, inner device */
  int t;
} adam_slot_t;

typedef struct {
  float lr, beta1, beta2, eps;
} adam_cfg_t;

typedef struct {
  dt_tensor *w, *b;
  adam_slot_t sw, sb;
  dt_device ad, inner;
} regressor_t;

typedef struct {
  dt_tensor *w, *b, *mw, *vw, *mb, *vb;
  int t;
} checkpoint_t;

static void slot_init(adam_slot_t *s, dt_device inner, int rank, const int64_t *shape) {
  s->m = dt_zeros(inner, DT_FLOAT, rank, shape);
  s->v = dt_zeros(inner, DT_FLOAT, rank, shape);
  s->t = 0;
}

static void regressor_init(regressor_t *r, dt_device inner) {
  int64_t ws[2] = {FEAT, 1};
  int64_t bs[1] = {1};
  r->inner = inner;
  r->ad = dt_autodiff(inner);
  r->w = dt_require_grad(dt_randn(r->ad, 3, 2, ws));
  r->b = dt_require_grad(dt_zeros(r->ad, DT_FLOAT, 1, bs));
  slot_init(&r->sw, inner, 2, ws);
  slot_init(&r->sb, inner, 1, bs);
}

static void adam_apply(dt_tensor **p, adam_slot_t *s, dt_device ad, const adam_cfg_t *c) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  s->t++;
  dt_tensor *m1 = dt_mul_scalar(s->m, c->beta1);
  dt_tensor *g1 = dt_mul_scalar(g, 1.0f - c->beta1);
  dt_tensor *m_new = dt_add(m1, g1); // expect-error: backend-mismatch
  dt_tensor *gg = dt_mul(g, g);
  dt_tensor *v1 = dt_mul_scalar(s->v, c->beta2);
  dt_tensor *gg1 = dt_mul_scalar(gg, 1.0f - c->beta2);
  dt_tensor *v_new = dt_add(v1, gg1); // expect-error: backend-mismatch
  float bc1 = 1.0f - powf(c->beta1, (float)s->t);
  float bc2 = 1.0f - powf(c->beta2, (float)s->t);
  dt_tensor *mhat = dt_mul_scalar(m_new, 1.0f / bc1);
  dt_tensor *vhat = dt_mul_scalar(v_new, 1.0f / bc2);
  dt_tensor *vl = dt_log(dt_add_scalar(vhat, 1e-12f));
  dt_tensor *sq = dt_exp(dt_mul_scalar(vl, 0.5f));
  dt_tensor *den = dt_add_scalar(sq, c->eps);
  dt_tensor *upd = dt_div(mhat, den);
  dt_tensor *step = dt_mul_scalar(upd, c->lr);
  dt_tensor *cur = dt_inner(*p);
  dt_tensor *next = dt_sub(cur, step);
  dt_free(s->m);
  dt_free(s->v);
  s->m = m_new;
  s->v = v_new;
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(ad, next));
  dt_tensor *tmp[] = {g, m1, g1, gg, v1, gg1, mhat, vhat, vl, sq, den, upd, step, cur, next};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
}

static void save_checkpoint(const regressor_t *r, checkpoint_t *ck) {
  dt_device host = dt_cpu();
  dt_tensor *wi = dt_inner(r->w);
  dt_tensor *bi = dt_inner(r->b);
  ck->w = dt_to_device(wi, host);
  ck->b = dt_to_device(bi, host);
  ck->mw = dt_to_device(r->sw.m, host);
  ck->vw = dt_to_device(r->sw.v, host);
  ck->mb = dt_to_device(r->sb.m, host);
  ck->vb = dt_to_device(r->sb.v, host);
  ck->t = r->sw.t;
  dt_free(wi);
  dt_free(bi);
}

static void release_device_state(regressor_t *r) {
  dt_free(r->w);
  dt_free(r->b);
  dt_free(r->sw.m);
  dt_free(r->sw.v);
  dt_free(r->sb.m);
  dt_free(r->sb.v);
}

static void restore_checkpoint(regressor_t *r, const checkpoint_t *ck) {
  dt_tensor *wi = dt_to_device(ck->w, r->inner);
  dt_tensor *bi = dt_to_device(ck->b, r->inner);
  r->w = dt_require_grad(dt_from_inner(r->ad, wi));
  r->b = dt_require_grad(dt_from_inner(r->ad, bi));
  /* moments: the slots just keep the host copies (resumed below) */
  r->sw.m = ck->mw;
  r->sw.v = ck->vw;
  r->sb.m = ck->mb;
  r->sb.v = ck->vb;
  r->sw.t = ck->t;
  r->sb.t = ck->t;
  dt_free(wi);
  dt_free(bi);
}

static void synth(float *x, float *y, int step) {
  for (int i = 0; i < BATCH; i++) {
    float acc = 0.3f;
    for (int j = 0; j < FEAT; j++) {
      float v = sinf(0.37f * (float)(i * FEAT + j + step * 13));
      x[i * FEAT + j] = v;
      acc += v * (float)(j + 1) * 0.1f;
    }
    y[i] = acc;
  }
}

static float train_steps(regressor_t *r, const adam_cfg_t *cfg, int from, int to) {
  float x[BATCH * FEAT], y[BATCH], lv = 0.0f;
  int64_t xs[2] = {BATCH, FEAT};
  int64_t ys[2] = {BATCH, 1};
  for (int s = from; s < to; s++) {
    synth(x, y, s);
    dt_tensor *xt = dt_from_floats(r->ad, x, 2, xs);
    dt_tensor *yt = dt_from_floats(r->ad, y, 2, ys);
    dt_tensor *h = dt_matmul(xt, r->w);
    dt_tensor *o = dt_add(h, r->b);
    dt_tensor *loss = dt_mse_loss(o, yt);
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    adam_apply(&r->w, &r->sw, r->ad, cfg);
    adam_apply(&r->b, &r->sb, r->ad, cfg);
    dt_free(xt);
    dt_free(yt);
    dt_free(h);
    dt_free(o);
    dt_free(loss);
  }
  return lv;
}

int main(int argc, char **argv) {
  int total = argc > 1 ? atoi(argv[1]) : 40;
  if (total < 2) total = 2;
  adam_cfg_t cfg = {0.05f, 0.9f, 0.999f, 1e-8f};
  regressor_t r;
  regressor_init(&r, dt_sim(0));
  float l1 = train_steps(&r, &cfg, 0, total / 2);
  printf("phase 1 loss %.4f\n", l1);

  checkpoint_t ck;
  save_checkpoint(&r, &ck);
  release_device_state(&r);
  restore_checkpoint(&r, &ck);

  float l2 = train_steps(&r, &cfg, total / 2, total);
  printf("phase 2 loss %.4f\n", l2);
  dt_free(ck.w);
  dt_free(ck.b);
  release_device_state(&r);
  return 0;
}
