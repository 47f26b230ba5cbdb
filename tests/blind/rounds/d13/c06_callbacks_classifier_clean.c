/* Binary classifier (logistic MLP) with a callback-driven training loop: a table of hooks
 * (on_batch, on_epoch, on_eval) is called by the trainer; metrics run on detached plain
 * tensors, optionally on a separate metrics device; the learning rate follows a schedule
 * picked by name; gradient clipping by global norm; early stopping when a hook says so.
 *
 *   usage: c06 [--device D] [--metrics-device D] [--epochs N] [--schedule step|linear|none]
 */
// run-args: --device sim1 --metrics-device cpu --epochs 6 --schedule linear
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NF 5
#define NH 9
#define NB 12

typedef enum LrKind { LR_NONE, LR_STEP, LR_LINEAR } LrKind;

typedef struct Model {
  dt_device ad;
  dt_tensor *w1, *b1, *w2, *b2;
} Model;

struct Trainer;
typedef int (*batch_hook)(struct Trainer *, int step, const dt_tensor *probs,
                          const dt_tensor *labels);
typedef int (*epoch_hook)(struct Trainer *, int epoch, float mean_loss);

typedef struct Hooks {
  batch_hook on_batch;
  epoch_hook on_epoch;
  epoch_hook on_eval;
} Hooks;

typedef struct Trainer {
  Model model;
  Hooks hooks;
  dt_device metrics_dev;
  LrKind lr_kind;
  float base_lr, best, clip;
  int epochs, patience, bad_epochs, correct, seen;
} Trainer;

static dt_device dev_arg(const char *s) {
  if (!strcmp(s, "sim0")) return dt_sim(0);
  if (!strcmp(s, "sim1")) return dt_sim(1);
  if (!strcmp(s, "cuda") && dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return dt_cpu();
}

static dt_tensor *param(dt_device ad, uint64_t seed, int rank, const int64_t *shape, float sc) {
  dt_tensor *r = dt_randn(dt_inner_device(ad), seed, rank, shape);
  dt_tensor *s = dt_mul_scalar(r, sc);
  dt_free(r);
  dt_tensor *p = dt_from_inner(ad, s);
  dt_free(s);
  return dt_require_grad(p);
}

static void model_init(Model *m, dt_device dev) {
  const int64_t s1[2] = {NF, NH}, s2[2] = {NH, 1}, c1[1] = {NH}, c2[1] = {1};
  m->ad = dt_autodiff(dev);
  m->w1 = param(m->ad, 1, 2, s1, 0.5f);
  m->b1 = param(m->ad, 2, 1, c1, 0.0f);
  m->w2 = param(m->ad, 3, 2, s2, 0.5f);
  m->b2 = param(m->ad, 4, 1, c2, 0.0f);
}

static dt_tensor *model_probs(const Model *m, const dt_tensor *x) {
  dt_tensor *z = dt_matmul(x, m->w1);
  dt_tensor *a = dt_add(z, m->b1);
  dt_tensor *h = dt_relu(a);
  dt_tensor *z2 = dt_matmul(h, m->w2);
  dt_tensor *o = dt_add(z2, m->b2);
  dt_tensor *p = dt_sigmoid(o);
  dt_free(z);
  dt_free(a);
  dt_free(h);
  dt_free(z2);
  dt_free(o);
  return p;
}

static float lr_at(const Trainer *t, int epoch) {
  switch (t->lr_kind) {
  case LR_NONE: return t->base_lr;
  case LR_STEP: return epoch < t->epochs / 2 ? t->base_lr : t->base_lr * 0.1f;
  case LR_LINEAR: return t->base_lr * (1.0f - (float)epoch / (float)(t->epochs + 1));
  }
  return t->base_lr;
}

static float grad_norm(dt_tensor *const *g, int n) {
  float total = 0.0f;
  for (int i = 0; i < n; i++) {
    if (!g[i]) continue;
    dt_tensor *sq = dt_mul(g[i], g[i]);
    dt_tensor *s = dt_sum(sq);
    float v = 0.0f;
    dt_read_floats(s, &v, 1);
    total += v;
    dt_free(sq);
    dt_free(s);
  }
  return sqrtf(total);
}

static void apply_grads(Trainer *t, float lr) {
  dt_tensor **ps[4] = {&t->model.w1, &t->model.b1, &t->model.w2, &t->model.b2};
  dt_tensor *g[4];
  for (int i = 0; i < 4; i++) g[i] = dt_grad(*ps[i]);
  float n = grad_norm(g, 4);
  float scale = (n > t->clip) ? t->clip / n : 1.0f;
  for (int i = 0; i < 4; i++) {
    if (!g[i]) continue;
    dt_tensor *w = dt_inner(*ps[i]);
    dt_tensor *st = dt_mul_scalar(g[i], lr * scale);
    dt_tensor *nw = dt_sub(w, st);
    dt_free(*ps[i]);
    *ps[i] = dt_require_grad(dt_from_inner(t->model.ad, nw));
    dt_free(w);
    dt_free(st);
    dt_free(nw);
    dt_free(g[i]);
  }
}

/* ---- hooks ---- */
static int count_correct(Trainer *t, int step, const dt_tensor *probs, const dt_tensor *labels) {
  (void)step;
  dt_tensor *pi = dt_inner(probs);
  dt_tensor *li = dt_inner(labels);
  dt_tensor *p = dt_to_device(pi, t->metrics_dev);
  dt_tensor *l = dt_to_device(li, t->metrics_dev);
  dt_tensor *half = dt_full(dt_device_of(p), 0.5f, 2, (const int64_t[]){NB, 1});
  dt_tensor *pred = dt_greater(p, half);
  dt_tensor *truth = dt_greater(l, half);
  dt_tensor *one = dt_ones(t->metrics_dev, DT_FLOAT, 2, (const int64_t[]){NB, 1});
  dt_tensor *zero = dt_zeros(t->metrics_dev, DT_FLOAT, 2, (const int64_t[]){NB, 1});
  dt_tensor *pf = dt_where(pred, one, zero);
  dt_tensor *tf = dt_where(truth, one, zero);
  dt_tensor *diff = dt_sub(pf, tf);
  dt_tensor *sq = dt_mul(diff, diff);
  dt_tensor *wrong = dt_sum(sq);
  float w = 0.0f;
  dt_read_floats(wrong, &w, 1);
  t->correct += NB - (int)(w + 0.5f);
  t->seen += NB;
  dt_tensor *tmp[] = {pi, li, p, l, half, pred, truth, one, zero, pf, tf, diff, sq, wrong};
  for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++) dt_free(tmp[i]);
  return 0;
}

static int print_epoch(Trainer *t, int epoch, float mean_loss) {
  printf("epoch %d loss %.4f acc %.3f lr %.4f\n", epoch, mean_loss,
         t->seen ? (float)t->correct / (float)t->seen : 0.0f, lr_at(t, epoch));
  t->correct = t->seen = 0;
  return 0;
}

static int early_stop(Trainer *t, int epoch, float mean_loss) {
  (void)epoch;
  if (mean_loss < t->best - 1e-4f) {
    t->best = mean_loss;
    t->bad_epochs = 0;
    return 0;
  }
  return ++t->bad_epochs >= t->patience;
}

static void make_batch(int k, float *x, float *y) {
  for (int r = 0; r < NB; r++) {
    float s = 0.0f;
    for (int c = 0; c < NF; c++) {
      float v = sinf(0.9f * (float)(k * NB + r) + 1.3f * (float)c);
      x[r * NF + c] = v;
      s += (c < 2) ? v : -0.5f * v;
    }
    y[r] = s > 0.0f ? 1.0f : 0.0f;
  }
}

static int train(Trainer *t) {
  const int64_t xs[2] = {NB, NF}, ys[2] = {NB, 1};
  float x[NB * NF], y[NB];
  for (int epoch = 0; epoch < t->epochs; epoch++) {
    float total = 0.0f;
    int steps = 8;
    for (int s = 0; s < steps; s++) {
      make_batch(epoch * steps + s, x, y);
      dt_tensor *xt = dt_from_floats(t->model.ad, x, 2, xs);
      dt_tensor *yt = dt_from_floats(t->model.ad, y, 2, ys);
      dt_tensor *p = model_probs(&t->model, xt);
      dt_tensor *loss = dt_mse_loss(p, yt);
      dt_tensor *li = dt_inner(loss);
      float lv = 0.0f;
      dt_read_floats(li, &lv, 1);
      total += lv;
      dt_backward(loss);
      apply_grads(t, lr_at(t, epoch));
      int stop = t->hooks.on_batch ? t->hooks.on_batch(t, s, p, yt) : 0;
      dt_free(li);
      dt_free(loss);
      dt_free(p);
      dt_free(xt);
      dt_free(yt);
      if (stop) return 1;
    }
    if (t->hooks.on_epoch && t->hooks.on_epoch(t, epoch, total / (float)steps)) return 1;
    if (t->hooks.on_eval && t->hooks.on_eval(t, epoch, total / (float)steps)) {
      printf("early stop at epoch %d\n", epoch);
      return 0;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  Trainer t;
  memset(&t, 0, sizeof t);
  dt_device dev = dt_sim(0);
  t.metrics_dev = dt_cpu();
  t.epochs = 5;
  t.lr_kind = LR_NONE;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--device")) dev = dev_arg(argv[i + 1]);
    else if (!strcmp(argv[i], "--metrics-device")) t.metrics_dev = dev_arg(argv[i + 1]);
    else if (!strcmp(argv[i], "--epochs")) t.epochs = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--schedule"))
      t.lr_kind = !strcmp(argv[i + 1], "step") ? LR_STEP
                  : !strcmp(argv[i + 1], "linear") ? LR_LINEAR : LR_NONE;
  }
  t.base_lr = 0.5f;
  t.clip = 1.0f;
  t.best = 1e9f;
  t.patience = 3;
  t.hooks.on_batch = count_correct;
  t.hooks.on_epoch = print_epoch;
  t.hooks.on_eval = early_stop;
  model_init(&t.model, dev);

  int rc = train(&t);
  dt_free(t.model.w1);
  dt_free(t.model.b1);
  dt_free(t.model.w2);
  dt_free(t.model.b2);
  return rc;
}
