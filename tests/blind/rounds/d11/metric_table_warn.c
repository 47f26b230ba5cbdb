// provenance: blind round d11
// run-args: --metric acc
// Batch evaluation harness: a frozen two-layer scorer is run over a synthetic dataset and
// scored with metrics looked up in a table of function pointers (--metric mse|mae|acc).
// --cpu keeps everything on the host; the default is the simulated accelerator sim:0.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FEAT 5
#define N_HID 7
#define BATCH 10
#define N_BATCHES 4

typedef struct {
  dt_device dev;
  dt_tensor *w1, *w2;
  float threshold;
} scorer;

typedef struct eval_ctx {
  dt_device dev;
  float threshold;
  double sum;
  int count;
} eval_ctx;

typedef void (*metric_fn)(eval_ctx *, const dt_tensor *pred, const dt_tensor *target);

static float read_scalar(const dt_tensor *t) {
  float v = 0.0f;
  dt_read_floats(t, &v, 1);
  return v;
}

static void metric_mse(eval_ctx *c, const dt_tensor *pred, const dt_tensor *target) {
  dt_tensor *l = dt_mse_loss(pred, target);
  c->sum += read_scalar(l);
  c->count++;
  dt_free(l);
}

static void metric_mae(eval_ctx *c, const dt_tensor *pred, const dt_tensor *target) {
  dt_tensor *d = dt_sub(pred, target);
  dt_tensor *nd = dt_neg(d);
  dt_tensor *pos = dt_greater(d, nd);
  dt_tensor *absd = dt_where(pos, d, nd);
  dt_tensor *m = dt_mean(absd);
  c->sum += read_scalar(m);
  c->count++;
  dt_free(d); dt_free(nd); dt_free(pos); dt_free(absd); dt_free(m);
}

/* thresholds live on the host so they can be tuned without touching the model */
static dt_tensor *threshold_tensor(float t) {
  int64_t s[2] = {1, 1};
  return dt_full(dt_cpu(), t, 2, s);
}

static void metric_acc(eval_ctx *c, const dt_tensor *pred, const dt_tensor *target) {
  dt_tensor *thr = threshold_tensor(c->threshold);
  dt_tensor *p_pos = dt_greater(pred, thr); // expect-warning: backend-mismatch
  dt_tensor *t_pos = dt_greater(target, thr); // expect-warning: backend-mismatch
  dt_tensor *one = dt_ones(c->dev, DT_FLOAT, 2, (const int64_t[]){BATCH, 1});
  dt_tensor *zero = dt_zeros(c->dev, DT_FLOAT, 2, (const int64_t[]){BATCH, 1});
  dt_tensor *pf = dt_where(p_pos, one, zero);
  dt_tensor *tf = dt_where(t_pos, one, zero);
  dt_tensor *wrong = dt_mse_loss(pf, tf);  /* fraction of disagreements */
  c->sum += 1.0 - read_scalar(wrong);
  c->count++;
  dt_free(thr); dt_free(p_pos); dt_free(t_pos); dt_free(one); dt_free(zero);
  dt_free(pf); dt_free(tf); dt_free(wrong);
}

static const struct { const char *name; metric_fn fn; } METRICS[] = {
  {"mse", metric_mse},
  {"mae", metric_mae},
  {"acc", metric_acc},
};

static metric_fn lookup_metric(const char *name) {
  for (size_t i = 0; i < sizeof METRICS / sizeof METRICS[0]; i++)
    if (!strcmp(name, METRICS[i].name)) return METRICS[i].fn;
  fprintf(stderr, "unknown metric %s, using mse\n", name);
  return metric_mse;
}

static void scorer_init(scorer *s, dt_device d) {
  int64_t a[2] = {N_FEAT, N_HID}, b[2] = {N_HID, 1};
  dt_tensor *r1 = dt_randn(d, 77, 2, a);
  dt_tensor *r2 = dt_randn(d, 78, 2, b);
  s->w1 = dt_mul_scalar(r1, 0.4f);
  s->w2 = dt_mul_scalar(r2, 0.4f);
  s->dev = d;
  s->threshold = 0.0f;
  dt_free(r1); dt_free(r2);
}

static dt_tensor *scorer_forward(const scorer *s, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, s->w1);
  dt_tensor *a = dt_relu(h);
  dt_tensor *o = dt_matmul(a, s->w2);
  dt_tensor *y = dt_tanh(o);
  dt_free(h); dt_free(a); dt_free(o);
  return y;
}

static void synth_batch(int b, float *x, float *y) {
  for (int i = 0; i < BATCH; i++) {
    float s = 0.0f;
    for (int j = 0; j < N_FEAT; j++) {
      float v = (float)(((b * BATCH + i) * 11 + j * 5) % 13) / 13.0f - 0.5f;
      x[i * N_FEAT + j] = v;
      s += v;
    }
    y[i] = s > 0.0f ? 0.8f : -0.8f;
  }
}

int main(int argc, char **argv) {
  const char *metric_name = "mse";
  int on_cpu = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--metric") && i + 1 < argc) metric_name = argv[++i];
    else if (!strcmp(argv[i], "--cpu")) on_cpu = 1;
  }
  dt_device dev = on_cpu ? dt_cpu() : dt_sim(0);
  scorer model;
  scorer_init(&model, dev);
  metric_fn metric = lookup_metric(metric_name);
  eval_ctx ctx = {.dev = dev, .threshold = model.threshold, .sum = 0.0, .count = 0};

  float xb[BATCH * N_FEAT], yb[BATCH];
  int64_t xs[2] = {BATCH, N_FEAT}, ys[2] = {BATCH, 1};
  for (int b = 0; b < N_BATCHES; b++) {
    synth_batch(b, xb, yb);
    dt_tensor *x = dt_from_floats(dev, xb, 2, xs);
    dt_tensor *y = dt_from_floats(dev, yb, 2, ys);
    dt_tensor *p = scorer_forward(&model, x);
    metric(&ctx, p, y);
    dt_free(x); dt_free(y); dt_free(p);
  }
  printf("%s over %d batches: %.4f\n", metric_name, ctx.count, ctx.sum / ctx.count);
  dt_free(model.w1); dt_free(model.w2);
  return 0;
}
