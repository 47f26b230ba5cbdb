/* Two-stage pipeline-parallel training: stage 0 lives on autodiff<sim:0>, stage 1 on
 * autodiff<sim:1>.  Micro-batches flow through both stages; activations are handed from one
 * device to the next and gradients flow back across the hand-off.  Every EVAL_EVERY epochs, and
 * once at the end, a no-grad evaluation runs over the plain (inner) weights of the stages.
 *
 *   usage: c03 [EPOCHS] [MICRO_BATCHES] [EVAL_EVERY]
 */
// run-args: 5 3 2
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N_STAGES 2
#define D_IN 6
#define D_HID 16
#define D_OUT 3
#define MB 4

typedef struct Stage {
  dt_device ad;
  dt_tensor *w1, *b1, *w2, *b2;
  int64_t in, hid, out;
  const char *name;
} Stage;

typedef struct Pipeline {
  Stage stages[N_STAGES];
  float lr;
  int n_micro;
} Pipeline;

typedef dt_tensor *(*act_fn)(const dt_tensor *);

static dt_tensor *init_leaf(dt_device ad, uint64_t seed, int rank, const int64_t *shape,
                            float scale) {
  dt_tensor *r = dt_randn(dt_inner_device(ad), seed, rank, shape);
  dt_tensor *s = dt_mul_scalar(r, scale);
  dt_tensor *p = dt_from_inner(ad, s);
  dt_free(r);
  dt_free(s);
  return dt_require_grad(p);
}

static void stage_init(Stage *st, const char *name, dt_device accel, int64_t in, int64_t hid,
                       int64_t out, uint64_t seed) {
  st->name = name;
  st->ad = dt_autodiff(accel);
  st->in = in;
  st->hid = hid;
  st->out = out;
  const int64_t s1[2] = {in, hid}, s2[2] = {hid, out}, b1[1] = {hid}, b2[1] = {out};
  st->w1 = init_leaf(st->ad, seed, 2, s1, 0.4f);
  st->b1 = init_leaf(st->ad, seed + 1, 1, b1, 0.0f);
  st->w2 = init_leaf(st->ad, seed + 2, 2, s2, 0.4f);
  st->b2 = init_leaf(st->ad, seed + 3, 1, b2, 0.0f);
}

static dt_tensor *affine(const dt_tensor *x, const dt_tensor *w, const dt_tensor *b) {
  dt_tensor *z = dt_matmul(x, w); // expect-error: device-mismatch
  dt_tensor *r = dt_add(z, b);
  dt_free(z);
  return r;
}

static dt_tensor *two_layer(const dt_tensor *x, const dt_tensor *w1, const dt_tensor *b1,
                            const dt_tensor *w2, const dt_tensor *b2, act_fn act) {
  dt_tensor *a = affine(x, w1, b1);
  dt_tensor *h = act(a);
  dt_tensor *o = affine(h, w2, b2);
  dt_free(a);
  dt_free(h);
  return o;
}

static dt_tensor *stage_forward(const Stage *st, const dt_tensor *x) {
  return two_layer(x, st->w1, st->b1, st->w2, st->b2, dt_tanh);
}

/* Forward through the whole pipeline; each hand-off moves the activation to the next stage. */
static dt_tensor *pipe_forward(const Pipeline *p, const dt_tensor *x) {
  dt_tensor *h = dt_to_device(x, p->stages[0].ad);
  for (int k = 0; k < N_STAGES; k++) {
    if (!dt_device_equal(dt_device_of(h), p->stages[k].ad)) {
      dt_tensor *moved = dt_to_device(h, p->stages[k].ad);
      dt_free(h);
      h = moved;
    }
    dt_tensor *o = stage_forward(&p->stages[k], h);
    dt_free(h);
    h = o;
  }
  return h;
}

static void update_one(dt_device ad, dt_tensor **p, float lr) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  dt_tensor *inner = dt_inner(*p);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *np = dt_sub(inner, step);
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(ad, np));
  dt_free(np);
  dt_free(step);
  dt_free(inner);
  dt_free(g);
}

static void pipe_step(Pipeline *p) {
  for (int k = 0; k < N_STAGES; k++) {
    Stage *st = &p->stages[k];
    update_one(st->ad, &st->w1, p->lr);
    update_one(st->ad, &st->b1, p->lr);
    update_one(st->ad, &st->w2, p->lr);
    update_one(st->ad, &st->b2, p->lr);
  }
}

static void synth(int idx, float *x, float *y) {
  for (int r = 0; r < MB; r++) {
    float s = 0.0f;
    for (int c = 0; c < D_IN; c++) {
      float v = sinf(0.13f * (float)(idx * MB + r) * (float)(c + 1));
      x[r * D_IN + c] = v;
      s += v;
    }
    for (int c = 0; c < D_OUT; c++) y[r * D_OUT + c] = tanhf(s * (float)(c + 1) * 0.3f);
  }
}

/* No-grad evaluation over the inner (plain) weights. */
static float pipe_eval(const Pipeline *p, int n_batches) {
  const int64_t xs[2] = {MB, D_IN}, ys[2] = {MB, D_OUT};
  float x[MB * D_IN], y[MB * D_OUT], total = 0.0f;
  dt_device first = dt_inner_device(p->stages[0].ad);
  dt_device last = dt_inner_device(p->stages[N_STAGES - 1].ad);
  for (int i = 0; i < n_batches; i++) {
    synth(5000 + i, x, y);
    dt_tensor *h = dt_from_floats(first, x, 2, xs);
    for (int k = 0; k < N_STAGES; k++) {
      const Stage *st = &p->stages[k];
      dt_tensor *w1 = dt_inner(st->w1), *b1 = dt_inner(st->b1);
      dt_tensor *w2 = dt_inner(st->w2), *b2 = dt_inner(st->b2);
      dt_tensor *o = two_layer(h, w1, b1, w2, b2, dt_tanh);
      dt_free(h);
      h = o;
      dt_free(w1);
      dt_free(b1);
      dt_free(w2);
      dt_free(b2);
    }
    dt_tensor *yt = dt_from_floats(last, y, 2, ys);
    dt_tensor *l = dt_mse_loss(h, yt);
    float lv = 0.0f;
    if (l && dt_read_floats(l, &lv, 1) == 0) total += lv;
    dt_free(l);
    dt_free(yt);
    dt_free(h);
  }
  return total / (float)n_batches;
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 6;
  int n_micro = argc > 2 ? atoi(argv[2]) : 4;
  int eval_every = argc > 3 ? atoi(argv[3]) : 3;
  if (n_micro < 1) n_micro = 1;
  if (eval_every < 1) eval_every = 1;

  Pipeline p;
  p.lr = 0.02f;
  p.n_micro = n_micro;
  stage_init(&p.stages[0], "encoder", dt_sim(0), D_IN, D_HID, D_HID, 11);
  stage_init(&p.stages[1], "head", dt_sim(1), D_HID, D_HID, D_OUT, 23);

  const int64_t xs[2] = {MB, D_IN}, ys[2] = {MB, D_OUT};
  float x[MB * D_IN], y[MB * D_OUT];
  for (int epoch = 1; epoch <= epochs; epoch++) {
    float total = 0.0f;
    for (int m = 0; m < p.n_micro; m++) {
      synth(epoch * 64 + m, x, y);
      dt_tensor *xt = dt_from_floats(p.stages[0].ad, x, 2, xs);
      dt_tensor *yt = dt_from_floats(p.stages[N_STAGES - 1].ad, y, 2, ys);
      dt_tensor *out = pipe_forward(&p, xt);
      dt_tensor *loss = dt_mse_loss(out, yt);
      dt_tensor *li = dt_inner(loss);
      float lv = 0.0f;
      dt_read_floats(li, &lv, 1);
      total += lv;
      dt_backward(loss);
      pipe_step(&p);
      dt_free(li);
      dt_free(loss);
      dt_free(out);
      dt_free(xt);
      dt_free(yt);
    }
    printf("epoch %d train %.4f\n", epoch, total / (float)p.n_micro);
    if (epoch % eval_every == 0) printf("epoch %d eval %.4f\n", epoch, pipe_eval(&p, 3));
  }
  printf("final eval %.4f\n", pipe_eval(&p, 8));

  for (int k = 0; k < N_STAGES; k++) {
    dt_free(p.stages[k].w1);
    dt_free(p.stages[k].b1);
    dt_free(p.stages[k].w2);
    dt_free(p.stages[k].b2);
  }
  return 0;
}
