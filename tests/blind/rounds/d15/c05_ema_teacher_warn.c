// blind round d15 — mean-teacher consistency training with an EMA teacher.
// run-env: TEACHER_DEVICE=host
//
// The student trains on autodiff<sim:0>. The teacher is a plain copy whose weights follow the
// student by exponential moving average; TEACHER_DEVICE=host keeps it on the cpu to save device
// memory. Inputs, the EMA update and the teacher's outputs are all moved where they need to
// be — except the confidence threshold, a tensor made once on the training device and
// compared with the teacher's (possibly host) outputs.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D_IN 4
#define D_HID 8
#define D_OUT 3
#define BATCH 5
#define STEPS 4

typedef struct {
  dt_tensor *w1, *w2;
} weights;

typedef struct {
  dt_device dev; /* autodiff<sim:0> */
  weights w;     /* autodiff leaves */
} student_net;

typedef struct {
  dt_device dev; /* plain: the student's inner device, or the host */
  weights w;
  float decay;
} teacher_net;

typedef struct {
  dt_tensor *threshold; /* [1, D_OUT], plain, on the training device's inner device */
  float consistency_weight;
} consistency_cfg;

static dt_tensor *scaled_randn(dt_device d, uint64_t seed, int64_t r, int64_t c) {
  dt_tensor *t = dt_randn(d, seed, 2, (const int64_t[]){r, c});
  dt_tensor *s = dt_mul_scalar(t, 0.4f);
  dt_free(t);
  return s;
}

static void student_init(student_net *s, dt_device ad) {
  dt_device inner = dt_inner_device(ad);
  s->dev = ad;
  dt_tensor *a = scaled_randn(inner, 5, D_IN, D_HID);
  dt_tensor *b = scaled_randn(inner, 6, D_HID, D_OUT);
  s->w.w1 = dt_require_grad(dt_from_inner(ad, a));
  s->w.w2 = dt_require_grad(dt_from_inner(ad, b));
  dt_free(a);
  dt_free(b);
}

/* The teacher starts as an exact copy of the student, on its own device. */
static void teacher_init(teacher_net *t, const student_net *s, dt_device where, float decay) {
  t->dev = where;
  t->decay = decay;
  dt_tensor *i1 = dt_inner(s->w.w1);
  dt_tensor *i2 = dt_inner(s->w.w2);
  t->w.w1 = dt_to_device(i1, where);
  t->w.w2 = dt_to_device(i2, where);
  dt_free(i1);
  dt_free(i2);
}

static dt_tensor *two_layer(const weights *w, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, w->w1);
  dt_tensor *h = dt_relu(a);
  dt_tensor *o = dt_matmul(h, w->w2);
  dt_tensor *y = dt_sigmoid(o);
  dt_free(a);
  dt_free(h);
  dt_free(o);
  return y;
}

static dt_tensor *ema_blend(const dt_tensor *teacher_w, const dt_tensor *student_w, dt_device where,
                            float decay) {
  dt_tensor *inner = dt_inner(student_w);
  dt_tensor *moved = dt_to_device(inner, where);
  dt_tensor *a = dt_mul_scalar(teacher_w, decay);
  dt_tensor *b = dt_mul_scalar(moved, 1.0f - decay);
  dt_tensor *r = dt_add(a, b);
  dt_free(inner);
  dt_free(moved);
  dt_free(a);
  dt_free(b);
  return r;
}

static void teacher_update(teacher_net *t, const student_net *s) {
  dt_tensor *n1 = ema_blend(t->w.w1, s->w.w1, t->dev, t->decay);
  dt_tensor *n2 = ema_blend(t->w.w2, s->w.w2, t->dev, t->decay);
  dt_free(t->w.w1);
  dt_free(t->w.w2);
  t->w.w1 = n1;
  t->w.w2 = n2;
}

/* Teacher targets on the student's device: confident outputs kept, the rest zeroed. */
static dt_tensor *teacher_targets(const teacher_net *t, const consistency_cfg *cc,
                                  const dt_tensor *x_plain, dt_device student_dev) {
  dt_device inner = dt_inner_device(student_dev);
  dt_tensor *xt = dt_to_device(x_plain, t->dev);
  dt_tensor *tout = two_layer(&t->w, xt);
  dt_tensor *conf = dt_greater(tout, cc->threshold); // expect-warning: backend-mismatch
  dt_tensor *tout_s = dt_to_device(tout, inner);
  dt_tensor *conf_s = dt_to_device(conf, inner);
  dt_tensor *zeros = dt_zeros(inner, DT_FLOAT, 2, (const int64_t[]){BATCH, D_OUT});
  dt_tensor *kept = dt_where(conf_s, tout_s, zeros);
  dt_tensor *target = dt_from_inner(student_dev, kept);
  dt_tensor *tmp[] = {xt, tout, conf, tout_s, conf_s, zeros, kept};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return target;
}

static void make_batch(dt_device inner, int step, dt_tensor **x, dt_tensor **y) {
  float xs[BATCH * D_IN], ys[BATCH * D_OUT];
  for (int i = 0; i < BATCH; i++) {
    for (int j = 0; j < D_IN; j++) xs[i * D_IN + j] = (float)((i + 2 * j + step) % 5) / 5.0f;
    for (int k = 0; k < D_OUT; k++) ys[i * D_OUT + k] = (i + k + step) % D_OUT == 0 ? 1.0f : 0.0f;
  }
  *x = dt_from_floats(inner, xs, 2, (const int64_t[]){BATCH, D_IN});
  *y = dt_from_floats(inner, ys, 2, (const int64_t[]){BATCH, D_OUT});
}

static float train_step(student_net *s, teacher_net *t, const consistency_cfg *cc, int step,
                        float lr) {
  dt_device inner = dt_inner_device(s->dev);
  dt_tensor *x, *y;
  make_batch(inner, step, &x, &y);
  dt_tensor *xs = dt_from_inner(s->dev, x);
  dt_tensor *ys = dt_from_inner(s->dev, y);
  dt_tensor *target = teacher_targets(t, cc, x, s->dev);
  dt_tensor *out = two_layer(&s->w, xs);
  dt_tensor *sup = dt_mse_loss(out, ys);
  dt_tensor *cons = dt_mse_loss(out, target);
  dt_tensor *cons_w = dt_mul_scalar(cons, cc->consistency_weight);
  dt_tensor *loss = dt_add(sup, cons_w);
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  dt_tensor **slots[2] = {&s->w.w1, &s->w.w2};
  for (int i = 0; i < 2; i++) {
    dt_tensor *g = dt_grad(*slots[i]);
    if (!g) continue;
    dt_tensor *w = dt_inner(*slots[i]);
    dt_tensor *d = dt_mul_scalar(g, lr);
    dt_tensor *wn = dt_sub(w, d);
    dt_free(*slots[i]);
    *slots[i] = dt_require_grad(dt_from_inner(s->dev, wn));
    dt_free(g);
    dt_free(w);
    dt_free(d);
    dt_free(wn);
  }
  teacher_update(t, s);
  dt_tensor *tmp[] = {x, y, xs, ys, target, out, sup, cons, cons_w, loss};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return lv;
}

int main(void) {
  const char *where = getenv("TEACHER_DEVICE");
  int offload = where != NULL && strcmp(where, "host") == 0;
  student_net student;
  student_init(&student, dt_autodiff(dt_sim(0)));
  teacher_net teacher;
  teacher_init(&teacher, &student, offload ? dt_cpu() : dt_inner_device(student.dev), 0.9f);
  consistency_cfg cc;
  cc.threshold = dt_full(dt_inner_device(student.dev), 0.5f, 2, (const int64_t[]){1, D_OUT});
  cc.consistency_weight = 0.5f;
  for (int step = 0; step < STEPS; step++)
    printf("step %d: loss %.4f\n", step, train_step(&student, &teacher, &cc, step, 0.3f));
  char name[32];
  dt_device_name(teacher.dev, name, sizeof name);
  printf("teacher on %s\n", name);
  dt_free(cc.threshold);
  dt_free(student.w.w1);
  dt_free(student.w.w2);
  dt_free(teacher.w.w1);
  dt_free(teacher.w.w2);
  return 0;
}
