// provenance: blind round field6
// A 16-stage pipeline-parallel MLP: stages 0..7 live on sim:0, stages 8..15 on sim:1.
// Each stage moves its input activation onto its own device before the matmul, so the
// forward pass itself is correct.  The bug is in the loss: the target batch is made on the
// first stage's device, while the output of stage 15 is on sim:1.
// A second (deliberate) mistake: the "gradient clipping" scale buffer of the last stage is
// built on the first stage's device too.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSTAGES 16
#define WIDTH 4
#define BATCH 2

typedef struct stage {
  dt_device dev;
  dt_tensor *w;   /* WIDTH x WIDTH */
  dt_tensor *b;   /* WIDTH */
  int index;
} stage;

typedef struct pipeline {
  stage stages[NSTAGES];
  int nstages;
  dt_device input_dev;
  dt_device output_dev;
} pipeline;

typedef struct batch {
  dt_tensor *x;
  dt_tensor *y;
} batch;

static const int64_t W_SHAPE[2] = {WIDTH, WIDTH};
static const int64_t B_SHAPE[1] = {WIDTH};
static const int64_t X_SHAPE[2] = {BATCH, WIDTH};

static dt_device device_for_stage(int i) {
  /* first half on sim:0, second half on sim:1 */
  return dt_sim(i < NSTAGES / 2 ? 0 : 1);
}

static void stage_init(stage *s, int index) {
  s->index = index;
  s->dev = device_for_stage(index);
  s->w = dt_randn(s->dev, (uint64_t)(100 + index), 2, W_SHAPE);
  s->b = dt_zeros(s->dev, DT_FLOAT, 1, B_SHAPE);
}

static void stage_free(stage *s) {
  dt_free(s->w);
  dt_free(s->b);
  s->w = NULL;
  s->b = NULL;
}

static void pipeline_init(pipeline *p) {
  memset(p, 0, sizeof *p);
  p->nstages = NSTAGES;
  for (int i = 0; i < NSTAGES; i++)
    stage_init(&p->stages[i], i);
  p->input_dev = p->stages[0].dev;
  p->output_dev = p->stages[NSTAGES - 1].dev;
}

static void pipeline_free(pipeline *p) {
  for (int i = 0; i < p->nstages; i++)
    stage_free(&p->stages[i]);
}

/* one stage: move, matmul, bias, tanh */
static dt_tensor *stage_forward(const stage *s, const dt_tensor *in) {
  dt_tensor *local = dt_to_device(in, s->dev);
  dt_tensor *h = dt_matmul(local, s->w);
  dt_tensor *hb = dt_add(h, s->b);
  dt_tensor *out = dt_tanh(hb);
  dt_free(local);
  dt_free(h);
  dt_free(hb);
  return out;
}

static dt_tensor *pipeline_forward(const pipeline *p, const dt_tensor *x) {
  dt_tensor *act = dt_to_device(x, p->input_dev);
  for (int i = 0; i < p->nstages; i++) {
    dt_tensor *next = stage_forward(&p->stages[i], act);
    dt_free(act);
    act = next;
  }
  return act;
}

static void make_batch(batch *bt, dt_device d, int step) {
  float xs[BATCH * WIDTH], ys[BATCH * WIDTH];
  for (int i = 0; i < BATCH * WIDTH; i++) {
    xs[i] = (float)((i + step) % 5) * 0.1f;
    ys[i] = (float)((i * 3 + step) % 7) * 0.05f;
  }
  bt->x = dt_from_floats(d, xs, 2, X_SHAPE);
  bt->y = dt_from_floats(d, ys, 2, X_SHAPE);
}

static void batch_free(batch *bt) {
  dt_free(bt->x);
  dt_free(bt->y);
}

static float read_scalar(const dt_tensor *t) {
  float v = 0.0f;
  if (dt_read_floats(t, &v, 1) != 0)
    return -1.0f;
  return v;
}

/* per-stage activation statistics, gathered on the host */
static void stage_stats(const pipeline *p, const dt_tensor *x, float *means) {
  dt_tensor *act = dt_to_device(x, p->input_dev);
  for (int i = 0; i < p->nstages; i++) {
    dt_tensor *next = stage_forward(&p->stages[i], act);
    dt_tensor *m = dt_mean(next);
    means[i] = read_scalar(m);
    dt_free(m);
    dt_free(act);
    act = next;
  }
  dt_free(act);
}

static int check_placement(const pipeline *p) {
  int on_second = 0;
  for (int i = 0; i < p->nstages; i++) {
    char name[32];
    dt_device_name(p->stages[i].dev, name, sizeof name);
    if (strcmp(name, "sim:1") == 0)
      on_second++;
  }
  return on_second;
}

/* host checkpoint of every stage, then a reload onto the stage's own device */
typedef struct stage_ckpt {
  float w[WIDTH * WIDTH];
  float b[WIDTH];
} stage_ckpt;

static void checkpoint_stages(const pipeline *p, stage_ckpt *ck) {
  for (int i = 0; i < p->nstages; i++) {
    dt_tensor *wh = dt_to_device(p->stages[i].w, dt_cpu());
    dt_read_floats(wh, ck[i].w, WIDTH * WIDTH);
    dt_read_floats(p->stages[i].b, ck[i].b, WIDTH);
    dt_free(wh);
  }
}

static void reload_stages(pipeline *p, const stage_ckpt *ck) {
  for (int i = 0; i < p->nstages; i++) {
    stage *s = &p->stages[i];
    dt_free(s->w);
    dt_free(s->b);
    s->w = dt_from_floats(s->dev, ck[i].w, 2, W_SHAPE);
    s->b = dt_from_floats(s->dev, ck[i].b, 1, B_SHAPE);
  }
}

static float evaluate(const pipeline *p, int step) {
  batch bt;
  /* the batch is made where the pipeline starts */
  make_batch(&bt, p->input_dev, step);
  dt_tensor *out = pipeline_forward(p, bt.x);
  dt_tensor *loss = dt_mse_loss(out, bt.y); // expect-error: device-mismatch
  float v = read_scalar(loss);
  dt_free(loss);
  dt_free(out);
  batch_free(&bt);
  return v;
}

static dt_tensor *clip_scale(const pipeline *p) {
  /* a per-feature scale, on the pipeline's first device */
  return dt_full(p->input_dev, 0.5f, 1, B_SHAPE);
}

static void scale_last_stage(pipeline *p) {
  dt_tensor *scale = clip_scale(p);
  stage *last = &p->stages[p->nstages - 1];
  dt_tensor *nb = dt_mul(last->b, scale); // expect-error: device-mismatch
  dt_free(last->b);
  last->b = nb;
  dt_free(scale);
}

int main(void) {
  pipeline p;
  pipeline_init(&p);
  printf("stages on sim:1: %d\n", check_placement(&p));

  float means[NSTAGES];
  batch probe;
  make_batch(&probe, dt_cpu(), 0);
  stage_stats(&p, probe.x, means);
  for (int i = 0; i < NSTAGES; i++)
    printf("stage %2d mean %.4f\n", i, (double)means[i]);
  batch_free(&probe);

  static stage_ckpt ck[NSTAGES];
  checkpoint_stages(&p, ck);
  reload_stages(&p, ck);

  float total = 0.0f;
  for (int step = 0; step < 3; step++)
    total += evaluate(&p, step);
  printf("eval loss %.4f\n", (double)total);

  scale_last_stage(&p);
  pipeline_free(&p);
  return 0;
}
