// provenance: blind round d16
// c05: batched evaluation of a small classifier. The model lives on the accelerator (cuda:0
// when there is one, else sim:0); the loader may produce batches on the host (`--host-data`)
// or directly on the model's device; every tensor that meets the model first goes through
// ensure_on(), which moves it only when dt_device_equal says it is elsewhere. Metrics are
// computed on the device with greater/where and read back on the host; int labels stay on
// the host side of the comparison.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEAT 4
#define CLASSES 2
#define BATCH 5
#define N_BATCHES 4

typedef struct classifier {
  dt_device dev;
  dt_tensor *w;    /* [FEAT, CLASSES] */
  dt_tensor *b;    /* [CLASSES] */
  dt_tensor *temp; /* [1] calibration temperature, or NULL */
} classifier;

typedef struct batch {
  dt_tensor *x;      /* [BATCH, FEAT] */
  dt_tensor *labels; /* [BATCH] int */
} batch;

typedef struct loader {
  dt_device out;
  int next;
  int total;
} loader;

typedef struct metrics {
  int correct;
  int seen;
  float margin_sum;
} metrics;

/* Returns t itself when it already lives on dev, otherwise a moved copy; *moved tells the
   caller which one it got. */
static dt_tensor *ensure_on(dt_tensor *t, dt_device dev, int *moved) {
  if (dt_device_equal(dt_device_of(t), dev)) {
    *moved = 0;
    return t;
  }
  *moved = 1;
  return dt_to_device(t, dev);
}

static dt_device pick_accelerator(void) {
  if (dt_backend_available(DT_BACKEND_CUDA))
    return dt_cuda(0);
  return dt_sim(0);
}

static void classifier_init(classifier *c, dt_device dev, int calibrate) {
  c->dev = dev;
  float w[FEAT * CLASSES] = {0.8f, -0.8f, 0.5f, -0.5f, -0.3f, 0.3f, 0.1f, -0.1f};
  float b[CLASSES] = {0.05f, -0.05f};
  dt_tensor *wh = dt_from_floats(dt_cpu(), w, 2, (const int64_t[]){FEAT, CLASSES});
  dt_tensor *bh = dt_from_floats(dt_cpu(), b, 1, (const int64_t[]){CLASSES});
  int moved;
  c->w = ensure_on(wh, dev, &moved);
  if (moved)
    dt_free(wh);
  c->b = ensure_on(bh, dev, &moved);
  if (moved)
    dt_free(bh);
  c->temp = NULL;
  if (calibrate) {
    dt_tensor *th = dt_full(dt_cpu(), 1.5f, 1, (const int64_t[]){1});
    c->temp = dt_to_device(th, dev);
    dt_free(th);
  }
}

static void classifier_free(classifier *c) {
  dt_free(c->w);
  dt_free(c->b);
  dt_free(c->temp);
}

static int loader_next(loader *l, batch *out) {
  if (l->next >= l->total)
    return 0;
  float xs[BATCH * FEAT];
  int64_t ys[BATCH];
  for (int r = 0; r < BATCH; r++) {
    float s = 0.0f;
    for (int k = 0; k < FEAT; k++) {
      float v = (float)((l->next * 11 + r * 5 + k * 3) % 9) / 9.0f - 0.45f;
      xs[r * FEAT + k] = v;
      s += (k < 2 ? v : -v);
    }
    ys[r] = s > 0.0f ? 0 : 1;
  }
  out->x = dt_from_floats(l->out, xs, 2, (const int64_t[]){BATCH, FEAT});
  out->labels = dt_from_ints(dt_cpu(), ys, 1, (const int64_t[]){BATCH});
  l->next++;
  return 1;
}

static dt_tensor *logits_of(const classifier *c, const dt_tensor *x) {
  dt_tensor *z = dt_matmul(x, c->w);
  dt_tensor *zb = dt_add(z, c->b);
  dt_free(z);
  if (!c->temp)
    return zb;
  dt_tensor *scaled = dt_div(zb, c->temp);
  dt_free(zb);
  return scaled;
}

/* Per row: 1 where class 1 wins, else 0 (on the device), and the absolute margin. */
static void predict(const dt_tensor *logits, dt_device dev, dt_tensor **pred, dt_tensor **margin) {
  dt_tensor *sel0 = dt_from_floats(dev, (const float[]){1.0f, 0.0f}, 2, (const int64_t[]){CLASSES, 1});
  dt_tensor *sel1 = dt_from_floats(dev, (const float[]){0.0f, 1.0f}, 2, (const int64_t[]){CLASSES, 1});
  dt_tensor *l0 = dt_matmul(logits, sel0);
  dt_tensor *l1 = dt_matmul(logits, sel1);
  dt_tensor *wins = dt_greater(l1, l0);
  dt_tensor *one = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){BATCH, 1});
  dt_tensor *zero = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){BATCH, 1});
  *pred = dt_where(wins, one, zero);
  dt_tensor *diff = dt_sub(l1, l0);
  dt_tensor *neg = dt_neg(diff);
  *margin = dt_where(wins, diff, neg);
  dt_free(sel0);
  dt_free(sel1);
  dt_free(l0);
  dt_free(l1);
  dt_free(wins);
  dt_free(one);
  dt_free(zero);
  dt_free(diff);
  dt_free(neg);
}

static void score_batch(metrics *m, const dt_tensor *pred, const dt_tensor *margin,
                        const dt_tensor *labels) {
  float p[BATCH], mg[BATCH];
  int64_t y[BATCH];
  dt_tensor *ph = dt_to_device(pred, dt_cpu());
  dt_tensor *mh = dt_to_device(margin, dt_cpu());
  if (dt_read_floats(ph, p, BATCH) == 0 && dt_read_floats(mh, mg, BATCH) == 0 &&
      dt_read_ints(labels, y, BATCH) == 0) {
    for (int r = 0; r < BATCH; r++) {
      m->correct += ((int64_t)(p[r] > 0.5f) == y[r]);
      m->margin_sum += mg[r];
    }
    m->seen += BATCH;
  }
  dt_free(ph);
  dt_free(mh);
}

static metrics evaluate(const classifier *c, loader *l) {
  metrics m = {0, 0, 0.0f};
  batch bt;
  while (loader_next(l, &bt)) {
    int moved = 0;
    dt_tensor *x = ensure_on(bt.x, c->dev, &moved);
    dt_tensor *logits = logits_of(c, x);
    dt_tensor *pred, *margin;
    predict(logits, c->dev, &pred, &margin);
    score_batch(&m, pred, margin, bt.labels);
    if (moved)
      dt_free(x);
    dt_free(bt.x);
    dt_free(bt.labels);
    dt_free(logits);
    dt_free(pred);
    dt_free(margin);
  }
  return m;
}

int main(int argc, char **argv) {
  int host_data = 0, calibrate = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--host-data") == 0)
      host_data = 1;
    else if (strcmp(argv[i], "--calibrate") == 0)
      calibrate = 1;
  }
  dt_device dev = pick_accelerator();
  classifier c;
  classifier_init(&c, dev, calibrate);
  loader l = {host_data ? dt_cpu() : dev, 0, N_BATCHES};
  metrics m = evaluate(&c, &l);
  char name[32];
  dt_device_name(dev, name, sizeof name);
  printf("%s: accuracy %d/%d, mean margin %.4f\n", name, m.correct, m.seen,
         m.seen ? m.margin_sum / (float)m.seen : 0.0f);
  classifier_free(&c);
  return 0;
}
