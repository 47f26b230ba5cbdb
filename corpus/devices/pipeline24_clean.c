// provenance: blind round field6
// A 24-stage pipeline trained with autodiff.  Stage i runs on autodiff<sim:(i % 2)>, so the
// activation crosses between sim:0 and sim:1 at every stage boundary (tracked moves: the
// gradient flows back across each dt_to_device).  Micro-batches are kept in a per-stage
// queue; the SGD step goes through the inner (plain) tensors and re-wraps them on the
// stage's own autodiff device.  The head sits on the device of the last stage, which is
// sim:1 because 23 is odd; the target is moved there with dt_device_of.
// Clean: every operation sees operands on one device.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define NSTAGES 24
#define NMICRO 3
#define WIDTH 3
#define ROWS 2

static const int64_t WS[2] = {WIDTH, WIDTH};
static const int64_t XS[2] = {ROWS, WIDTH};

typedef struct stage_params {
  dt_tensor *w;
} stage_params;

typedef struct stage_slot {
  dt_device dev;       /* autodiff device */
  dt_device plain;     /* its inner device */
  stage_params params;
  dt_tensor *queue[NMICRO];
  int queued;
} stage_slot;

typedef struct pipe24 {
  stage_slot slot[NSTAGES];
  dt_tensor *head;     /* WIDTH x 1, on the last stage's device */
  float lr;
} pipe24;

static dt_device stage_device(int i) {
  return dt_autodiff(dt_sim(i % 2));
}

static dt_tensor *trainable(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return dt_require_grad(t);
}

static void pipe_init(pipe24 *p) {
  memset(p, 0, sizeof *p);
  p->lr = 0.01f;
  for (int i = 0; i < NSTAGES; i++) {
    stage_slot *s = &p->slot[i];
    s->dev = stage_device(i);
    s->plain = dt_inner_device(s->dev);
    dt_tensor *w0 = dt_randn(s->plain, (uint64_t)i * 7u + 1u, 2, WS);
    dt_tensor *w = dt_mul_scalar(w0, 0.3f);
    dt_free(w0);
    s->params.w = trainable(s->dev, w);
  }
  const int64_t hs[2] = {WIDTH, 1};
  dt_device last = p->slot[NSTAGES - 1].dev;
  p->head = trainable(last, dt_ones(dt_inner_device(last), DT_FLOAT, 2, hs));
}

static void pipe_free(pipe24 *p) {
  for (int i = 0; i < NSTAGES; i++) {
    dt_free(p->slot[i].params.w);
    for (int k = 0; k < p->slot[i].queued; k++)
      dt_free(p->slot[i].queue[k]);
    p->slot[i].queued = 0;
  }
  dt_free(p->head);
}

static void enqueue(stage_slot *s, dt_tensor *t) {
  s->queue[s->queued++] = t;
}

static dt_tensor *run_stage(stage_slot *s, const dt_tensor *in) {
  dt_tensor *moved = dt_to_device(in, s->dev);
  dt_tensor *h = dt_matmul(moved, s->params.w);
  dt_tensor *a = dt_tanh(h);
  dt_free(moved);
  dt_free(h);
  return a;
}

/* GPipe-style fill: every micro-batch goes through every stage, queued per stage */
static void forward_all(pipe24 *p, dt_tensor *const *micro) {
  for (int m = 0; m < NMICRO; m++)
    enqueue(&p->slot[0], run_stage(&p->slot[0], micro[m]));
  for (int i = 1; i < NSTAGES; i++) {
    stage_slot *prev = &p->slot[i - 1];
    for (int m = 0; m < prev->queued; m++)
      enqueue(&p->slot[i], run_stage(&p->slot[i], prev->queue[m]));
  }
}

static dt_tensor *micro_loss(pipe24 *p, int m, const dt_tensor *target_host) {
  dt_tensor *act = p->slot[NSTAGES - 1].queue[m];
  dt_tensor *pred = dt_matmul(act, p->head);
  dt_tensor *tgt_plain = dt_to_device(target_host, dt_inner_device(dt_device_of(pred)));
  dt_tensor *tgt = dt_from_inner(dt_device_of(pred), tgt_plain);
  dt_tensor *l = dt_mse_loss(pred, tgt);
  dt_free(pred);
  dt_free(tgt_plain);
  dt_free(tgt);
  return l;
}

static dt_tensor *sgd_one(dt_device ad, dt_tensor *param, float lr) {
  dt_tensor *g = dt_grad(param);
  if (g == NULL)
    return param;
  dt_tensor *inner = dt_inner(param);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *updated = dt_sub(inner, step);
  dt_free(g);
  dt_free(inner);
  dt_free(step);
  dt_free(param);
  return trainable(ad, updated);
}

static void sgd_step(pipe24 *p) {
  for (int i = 0; i < NSTAGES; i++)
    p->slot[i].params.w = sgd_one(p->slot[i].dev, p->slot[i].params.w, p->lr);
  p->head = sgd_one(p->slot[NSTAGES - 1].dev, p->head, p->lr);
}

static void clear_queues(pipe24 *p) {
  for (int i = 0; i < NSTAGES; i++) {
    for (int k = 0; k < p->slot[i].queued; k++)
      dt_free(p->slot[i].queue[k]);
    p->slot[i].queued = 0;
  }
}

static float train_step(pipe24 *p, int step) {
  dt_tensor *micro[NMICRO];
  float buf[ROWS * WIDTH];
  for (int m = 0; m < NMICRO; m++) {
    for (int k = 0; k < ROWS * WIDTH; k++)
      buf[k] = (float)((k + m + step) % 4) * 0.25f;
    micro[m] = dt_from_floats(p->slot[0].dev, buf, 2, XS);
  }
  forward_all(p, micro);

  const int64_t ts[2] = {ROWS, 1};
  float tv[ROWS] = {0.5f, -0.5f};
  dt_tensor *target = dt_from_floats(dt_cpu(), tv, 2, ts);

  dt_tensor *total = NULL;
  for (int m = 0; m < NMICRO; m++) {
    dt_tensor *l = micro_loss(p, m, target);
    if (total == NULL) {
      total = l;
    } else {
      dt_tensor *s = dt_add(total, l);
      dt_free(total);
      dt_free(l);
      total = s;
    }
  }
  float v = 0.0f;
  dt_read_floats(total, &v, 1);
  dt_backward(total);
  sgd_step(p);

  dt_free(total);
  dt_free(target);
  for (int m = 0; m < NMICRO; m++)
    dt_free(micro[m]);
  clear_queues(p);
  return v;
}

static void report_devices(const pipe24 *p) {
  int counts[2] = {0, 0};
  for (int i = 0; i < NSTAGES; i++) {
    dt_device d = dt_device_of(p->slot[i].params.w);
    counts[dt_inner_device(d).ordinal]++;
  }
  printf("stages on sim:0 %d, sim:1 %d\n", counts[0], counts[1]);
}

/* host-side evaluation: copy the whole pipeline's weights to the cpu and run it there */
static float eval_on_host(const pipe24 *p) {
  float xs[ROWS * WIDTH] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
  dt_tensor *act = dt_from_floats(dt_cpu(), xs, 2, XS);
  for (int i = 0; i < NSTAGES; i++) {
    dt_tensor *wi = dt_inner(p->slot[i].params.w);
    dt_tensor *wh = dt_to_device(wi, dt_cpu());
    dt_tensor *h = dt_matmul(act, wh);
    dt_tensor *a = dt_tanh(h);
    dt_free(wi);
    dt_free(wh);
    dt_free(h);
    dt_free(act);
    act = a;
  }
  dt_tensor *hi = dt_inner(p->head);
  dt_tensor *hh = dt_to_device(hi, dt_cpu());
  dt_tensor *pred = dt_matmul(act, hh);
  dt_tensor *s = dt_sum(pred);
  float v = 0.0f;
  dt_read_floats(s, &v, 1);
  dt_free(hi);
  dt_free(hh);
  dt_free(pred);
  dt_free(s);
  dt_free(act);
  return v;
}

int main(void) {
  pipe24 p;
  pipe_init(&p);
  report_devices(&p);
  for (int step = 0; step < 3; step++)
    printf("step %d loss %.5f\n", step, (double)train_step(&p, step));
  printf("host eval %.5f\n", (double)eval_on_host(&p));
  pipe_free(&p);
  return 0;
}
