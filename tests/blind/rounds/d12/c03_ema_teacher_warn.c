// provenance: blind round d12
// run-env: TEACHER_DEVICE=sim1
/* Self-distillation: a student MLP on autodiff<sim:0> learns to match an EMA teacher.
 * The teacher is plain (no graph) and may be placed on another accelerator through
 * TEACHER_DEVICE to save memory on the training device. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM 8
#define HIDDEN 16
#define BATCH 12
#define STEPS 20

typedef struct {
  dt_tensor *w1, *b1, *w2, *b2;
} weights_t;

typedef struct {
  weights_t p;          /* autodiff leaves */
  dt_device dev;
} student_t;

typedef struct {
  weights_t p;          /* plain tensors */
  dt_device dev;
  float decay;
} teacher_t;

static dt_device teacher_device_from_env(dt_device fallback) {
  const char *s = getenv("TEACHER_DEVICE");
  if (s && strcmp(s, "sim1") == 0) return dt_sim(1);
  if (s && strcmp(s, "cpu-offload") == 0) return fallback;
  return fallback;
}

static void weights_rand(weights_t *w, dt_device d, uint64_t seed) {
  int64_t s1[2] = {DIM, HIDDEN}, sb1[1] = {HIDDEN};
  int64_t s2[2] = {HIDDEN, DIM}, sb2[1] = {DIM};
  dt_tensor *a = dt_randn(d, seed, 2, s1);
  dt_tensor *b = dt_randn(d, seed + 1, 2, s2);
  w->w1 = dt_mul_scalar(a, 0.3f);
  w->w2 = dt_mul_scalar(b, 0.3f);
  w->b1 = dt_zeros(d, DT_FLOAT, 1, sb1);
  w->b2 = dt_zeros(d, DT_FLOAT, 1, sb2);
  dt_free(a);
  dt_free(b);
}

static void student_init(student_t *s, dt_device inner) {
  s->dev = dt_autodiff(inner);
  weights_t tmp;
  weights_rand(&tmp, inner, 100);
  s->p.w1 = dt_require_grad(dt_from_inner(s->dev, tmp.w1));
  s->p.b1 = dt_require_grad(dt_from_inner(s->dev, tmp.b1));
  s->p.w2 = dt_require_grad(dt_from_inner(s->dev, tmp.w2));
  s->p.b2 = dt_require_grad(dt_from_inner(s->dev, tmp.b2));
  dt_free(tmp.w1); dt_free(tmp.b1); dt_free(tmp.w2); dt_free(tmp.b2);
}

static void teacher_init_from(teacher_t *t, const student_t *s, dt_device d) {
  t->dev = d;
  t->decay = 0.95f;
  dt_tensor *i1 = dt_inner(s->p.w1), *i2 = dt_inner(s->p.b1);
  dt_tensor *i3 = dt_inner(s->p.w2), *i4 = dt_inner(s->p.b2);
  t->p.w1 = dt_to_device(i1, d);
  t->p.b1 = dt_to_device(i2, d);
  t->p.w2 = dt_to_device(i3, d);
  t->p.b2 = dt_to_device(i4, d);
  dt_free(i1); dt_free(i2); dt_free(i3); dt_free(i4);
}

static dt_tensor *mlp(const dt_tensor *x, const weights_t *w) {
  dt_tensor *h = dt_matmul(x, w->w1); // expect-warning: device-mismatch
  dt_tensor *hb = dt_add(h, w->b1);
  dt_tensor *ha = dt_relu(hb);
  dt_tensor *o = dt_matmul(ha, w->w2);
  dt_tensor *ob = dt_add(o, w->b2);
  dt_free(h); dt_free(hb); dt_free(ha); dt_free(o);
  return ob;
}

static void ema_one(dt_tensor **tw, const dt_tensor *sw, float decay, dt_device tdev) {
  dt_tensor *si = dt_inner(sw);
  dt_tensor *moved = dt_to_device(si, tdev);
  dt_tensor *a = dt_mul_scalar(*tw, decay);
  dt_tensor *b = dt_mul_scalar(moved, 1.0f - decay);
  dt_tensor *n = dt_add(a, b);
  dt_free(*tw);
  *tw = n;
  dt_free(si); dt_free(moved); dt_free(a); dt_free(b);
}

static void teacher_update(teacher_t *t, const student_t *s) {
  ema_one(&t->p.w1, s->p.w1, t->decay, t->dev);
  ema_one(&t->p.b1, s->p.b1, t->decay, t->dev);
  ema_one(&t->p.w2, s->p.w2, t->decay, t->dev);
  ema_one(&t->p.b2, s->p.b2, t->decay, t->dev);
}

static void sgd(dt_tensor **p, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  dt_tensor *i = dt_inner(*p);
  dt_tensor *st = dt_mul_scalar(g, lr);
  dt_tensor *n = dt_sub(i, st);
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(ad, n));
  dt_free(g); dt_free(i); dt_free(st); dt_free(n);
}

static void fill_batch(float *buf, int step) {
  for (int i = 0; i < BATCH * DIM; i++) buf[i] = (float)((i * 7 + step * 3) % 11) / 11.0f - 0.5f;
}

int main(void) {
  dt_device train = dt_sim(0);
  student_t st;
  teacher_t te;
  student_init(&st, train);
  teacher_init_from(&te, &st, teacher_device_from_env(train));
  char tn[32];
  dt_device_name(te.dev, tn, sizeof tn);
  printf("teacher on %s\n", tn);

  float xb[BATCH * DIM];
  int64_t xs[2] = {BATCH, DIM};
  for (int step = 0; step < STEPS; step++) {
    fill_batch(xb, step);
    dt_tensor *x_plain = dt_from_floats(train, xb, 2, xs);
    dt_tensor *x_ad = dt_from_inner(st.dev, x_plain);
    /* teacher target: no graph */
    dt_tensor *t_out = mlp(x_plain, &te.p);
    dt_tensor *t_ad = dt_from_inner(st.dev, t_out);
    dt_tensor *noise = dt_randn(st.dev, 1000 + step, 2, xs);
    dt_tensor *noisy = dt_add(x_ad, dt_mul_scalar(noise, 0.05f));
    dt_tensor *s_out = mlp(noisy, &st.p);
    dt_tensor *loss = dt_mse_loss(s_out, t_ad);
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    sgd(&st.p.w1, st.dev, 0.1f);
    sgd(&st.p.b1, st.dev, 0.1f);
    sgd(&st.p.w2, st.dev, 0.1f);
    sgd(&st.p.b2, st.dev, 0.1f);
    teacher_update(&te, &st);
    if (step % 5 == 0) printf("step %d distill loss %.5f\n", step, lv);
    dt_free(x_plain); dt_free(x_ad); dt_free(t_out); dt_free(t_ad);
    dt_free(noise); dt_free(noisy); dt_free(s_out); dt_free(loss);
  }
  return 0;
}
