/* Mean-teacher semi-supervised regression.  The student trains on autodiff<STUDENT_DEVICE>;
 * the teacher is an exponential moving average of the student kept as plain tensors on
 * TEACHER_DEVICE (possibly another accelerator, to keep the student's device free).  Every
 * exchange between the two goes through an explicit transfer.
 *
 *   env: STUDENT_DEVICE, TEACHER_DEVICE (cpu|sim0|sim1|cuda), EMA_SCHEDULE (const|warmup|cosine)
 *   usage: c04 [STEPS]
 */
// run-args: 14
// run-env: STUDENT_DEVICE=sim0 TEACHER_DEVICE=sim1 EMA_SCHEDULE=cosine
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D 8
#define H 8
#define B 6
#define NP 4

typedef enum Schedule { SCHED_CONST, SCHED_WARMUP, SCHED_COSINE } Schedule;
typedef float (*decay_fn)(int step, int total);

typedef struct Student {
  dt_device ad;
  dt_tensor *p[NP]; /* w1 b1 w2 b2, autodiff leaves */
} Student;

typedef struct Teacher {
  dt_device dev; /* plain device */
  dt_tensor *p[NP];
} Teacher;

static const int64_t SHAPES[NP][2] = {{D, H}, {H, 0}, {H, D}, {D, 0}};
static int rank_of(int i) { return SHAPES[i][1] ? 2 : 1; }

static dt_device parse_dev(const char *s, dt_device fallback) {
  if (!s || !*s) return fallback;
  if (!strcmp(s, "cpu")) return dt_cpu();
  if (!strcmp(s, "sim0")) return dt_sim(0);
  if (!strcmp(s, "sim1")) return dt_sim(1);
  if (!strcmp(s, "cuda")) return dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : fallback;
  return fallback;
}

static Schedule parse_schedule(const char *s) {
  if (s && !strcmp(s, "warmup")) return SCHED_WARMUP;
  if (s && !strcmp(s, "cosine")) return SCHED_COSINE;
  return SCHED_CONST;
}

static float decay_const(int step, int total) {
  (void)step;
  (void)total;
  return 0.99f;
}
static float decay_warmup(int step, int total) {
  (void)total;
  float d = 1.0f - 1.0f / (float)(step + 2);
  return d < 0.99f ? d : 0.99f;
}
static float decay_cosine(int step, int total) {
  float t = (float)step / (float)(total > 1 ? total : 1);
  return 0.999f - 0.5f * (1.0f - 0.999f) * (1.0f + cosf(3.14159265f * t));
}

static decay_fn pick_decay(Schedule s) {
  switch (s) {
  case SCHED_CONST: return decay_const;
  case SCHED_WARMUP: return decay_warmup;
  case SCHED_COSINE: return decay_cosine;
  }
  return decay_const;
}

static void student_init(Student *s, dt_device accel) {
  s->ad = dt_autodiff(accel);
  for (int i = 0; i < NP; i++) {
    dt_tensor *r = dt_randn(accel, 40u + (uint64_t)i, rank_of(i), SHAPES[i]);
    dt_tensor *sc = dt_mul_scalar(r, rank_of(i) == 2 ? 0.35f : 0.0f);
    s->p[i] = dt_require_grad(dt_from_inner(s->ad, sc));
    dt_free(r);
    dt_free(sc);
  }
}

static void teacher_from_student(Teacher *t, const Student *s, dt_device dev) {
  t->dev = dev;
  for (int i = 0; i < NP; i++) {
    dt_tensor *in = dt_inner(s->p[i]);
    t->p[i] = dt_to_device(in, dev);
    dt_free(in);
  }
}

static void ema_update(Teacher *t, const Student *s, float decay) {
  for (int i = 0; i < NP; i++) {
    dt_tensor *in = dt_inner(s->p[i]);
    dt_tensor *here = dt_to_device(in, t->dev);
    dt_tensor *a = dt_mul_scalar(t->p[i], decay);
    dt_tensor *b = dt_mul_scalar(here, 1.0f - decay);
    dt_tensor *n = dt_add(a, b);
    dt_free(t->p[i]);
    t->p[i] = n;
    dt_free(in);
    dt_free(here);
    dt_free(a);
    dt_free(b);
  }
}

static dt_tensor *mlp(dt_tensor *const *p, const dt_tensor *x) {
  dt_tensor *z1 = dt_matmul(x, p[0]);
  dt_tensor *a1 = dt_add(z1, p[1]);
  dt_tensor *h = dt_tanh(a1);
  dt_tensor *z2 = dt_matmul(h, p[2]);
  dt_tensor *o = dt_add(z2, p[3]);
  dt_free(z1);
  dt_free(a1);
  dt_free(h);
  dt_free(z2);
  return o;
}

/* Teacher prediction for a host batch, returned as a plain tensor on `where`. */
static dt_tensor *teacher_predict(const Teacher *t, const float *x, dt_device where) {
  const int64_t xs[2] = {B, D};
  dt_tensor *xt = dt_from_floats(t->dev, x, 2, xs);
  dt_tensor *o = mlp(t->p, xt);
  dt_tensor *moved = dt_to_device(o, where);
  dt_free(xt);
  dt_free(o);
  return moved;
}

static void sgd(Student *s, float lr) {
  dt_device inner = dt_inner_device(s->ad);
  for (int i = 0; i < NP; i++) {
    dt_tensor *g = dt_grad(s->p[i]);
    if (!g) continue;
    dt_tensor *w = dt_inner(s->p[i]);
    dt_tensor *st = dt_mul_scalar(g, lr);
    dt_tensor *nw = dt_sub(w, st);
    if (!dt_device_equal(dt_device_of(nw), inner)) {
      fprintf(stderr, "unexpected device for updated weight\n");
      exit(2);
    }
    dt_free(s->p[i]);
    s->p[i] = dt_require_grad(dt_from_inner(s->ad, nw));
    dt_free(g);
    dt_free(w);
    dt_free(st);
    dt_free(nw);
  }
}

static void batch(int k, float *x, float *noisy, float *y, int *labelled) {
  *labelled = (k % 3 == 0);
  for (int i = 0; i < B * D; i++) {
    x[i] = sinf(0.21f * (float)(k * B * D + i));
    noisy[i] = x[i] + 0.05f * cosf(1.7f * (float)(i + k));
    y[i] = 0.8f * x[i];
  }
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 12;
  dt_device sdev = parse_dev(getenv("STUDENT_DEVICE"), dt_sim(0));
  dt_device tdev = parse_dev(getenv("TEACHER_DEVICE"), sdev);
  decay_fn decay = pick_decay(parse_schedule(getenv("EMA_SCHEDULE")));

  Student s;
  Teacher t;
  student_init(&s, sdev);
  teacher_from_student(&t, &s, tdev);

  const int64_t xs[2] = {B, D};
  float x[B * D], noisy[B * D], y[B * D];
  for (int k = 0; k < steps; k++) {
    int labelled = 0;
    batch(k, x, noisy, y, &labelled);
    dt_tensor *xin = dt_from_floats(s.ad, noisy, 2, xs);
    dt_tensor *pred = mlp(s.p, xin);

    dt_tensor *target_plain = labelled ? dt_from_floats(sdev, y, 2, xs)
                                       : teacher_predict(&t, x, sdev);
    dt_tensor *target = dt_from_inner(s.ad, target_plain);
    dt_tensor *loss = dt_mse_loss(pred, target);
    dt_tensor *li = dt_inner(loss);
    float lv = 0.0f;
    dt_read_floats(li, &lv, 1);
    dt_backward(loss);
    sgd(&s, 0.05f);
    ema_update(&t, &s, decay(k, steps));
    printf("step %2d %s loss %.5f\n", k, labelled ? "sup " : "cons", lv);

    dt_free(li);
    dt_free(loss);
    dt_free(target);
    dt_free(target_plain);
    dt_free(pred);
    dt_free(xin);
  }

  /* final check: teacher and student agree on a fresh batch */
  int dummy = 0;
  batch(999, x, noisy, y, &dummy);
  dt_tensor *tp = teacher_predict(&t, x, sdev);
  dt_tensor *xin = dt_from_floats(sdev, x, 2, xs);
  dt_tensor *sp_inner[NP];
  for (int i = 0; i < NP; i++) sp_inner[i] = dt_inner(s.p[i]);
  dt_tensor *sp = mlp(sp_inner, xin);
  dt_tensor *gap = dt_mse_loss(sp, tp);
  float g = 0.0f;
  dt_read_floats(gap, &g, 1);
  printf("teacher/student gap %.6f\n", g);
  for (int i = 0; i < NP; i++) {
    dt_free(sp_inner[i]);
    dt_free(s.p[i]);
    dt_free(t.p[i]);
  }
  dt_free(gap);
  dt_free(sp);
  dt_free(xin);
  dt_free(tp);
  return 0;
}
