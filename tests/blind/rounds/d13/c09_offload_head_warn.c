/* Feature extractor + regression head.  Modes: train (both parts trained jointly),
 * finetune (backbone frozen: its features are computed without a graph and only the head
 * trains), eval.  --offload-head keeps the head (and its loss) on autodiff<cpu> to save
 * accelerator memory; the backbone always runs on the accelerator.
 *
 *   usage: c09 --mode train|finetune|eval [--offload-head] [--steps N] [--accel 0|1]
 */
// run-args: --mode train --offload-head --steps 6
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XD 7
#define FD 10
#define YD 2
#define NB 5

typedef enum Mode { MODE_TRAIN, MODE_FINETUNE, MODE_EVAL } Mode;

typedef struct Config {
  Mode mode;
  int offload_head;
  int steps;
  int accel;
  float lr;
} Config;

typedef struct Part {
  dt_device ad;
  dt_tensor *w, *b;
  const char *name;
} Part;

static int parse_config(int argc, char **argv, Config *c) {
  c->mode = MODE_TRAIN;
  c->offload_head = 0;
  c->steps = 10;
  c->accel = 0;
  c->lr = 0.05f;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--offload-head")) c->offload_head = 1;
    else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
      const char *m = argv[++i];
      if (!strcmp(m, "train")) c->mode = MODE_TRAIN;
      else if (!strcmp(m, "finetune")) c->mode = MODE_FINETUNE;
      else if (!strcmp(m, "eval")) c->mode = MODE_EVAL;
      else return -1;
    } else if (!strcmp(argv[i], "--steps") && i + 1 < argc) c->steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--accel") && i + 1 < argc) c->accel = atoi(argv[++i]) ? 1 : 0;
    else return -1;
  }
  return 0;
}

static void part_init(Part *p, const char *name, dt_device dev, int64_t in, int64_t out,
                      uint64_t seed) {
  p->name = name;
  p->ad = dt_autodiff(dev);
  dt_tensor *r = dt_randn(dev, seed, 2, (const int64_t[]){in, out});
  dt_tensor *s = dt_mul_scalar(r, 1.0f / sqrtf((float)in));
  p->w = dt_require_grad(dt_from_inner(p->ad, s));
  p->b = dt_require_grad(dt_zeros(p->ad, DT_FLOAT, 1, (const int64_t[]){out}));
  dt_free(r);
  dt_free(s);
}

static void part_free(Part *p) {
  dt_free(p->w);
  dt_free(p->b);
}

static dt_tensor *part_apply(const Part *p, const dt_tensor *x, int act) {
  dt_tensor *z = dt_matmul(x, p->w); // expect-warning: autodiff-inner-backend
  dt_tensor *o = dt_add(z, p->b);
  dt_free(z);
  if (!act) return o;
  dt_tensor *a = dt_relu(o);
  dt_free(o);
  return a;
}

/* Backbone features without a graph: plain weights on the backbone's inner device. */
static dt_tensor *frozen_features(const Part *bb, const float *x) {
  dt_device dev = dt_inner_device(bb->ad);
  dt_tensor *xt = dt_from_floats(dev, x, 2, (const int64_t[]){NB, XD});
  dt_tensor *w = dt_inner(bb->w), *b = dt_inner(bb->b);
  dt_tensor *z = dt_matmul(xt, w);
  dt_tensor *o = dt_add(z, b);
  dt_tensor *f = dt_relu(o);
  dt_free(xt);
  dt_free(w);
  dt_free(b);
  dt_free(z);
  dt_free(o);
  return f;
}

static void part_sgd(Part *p, float lr) {
  dt_tensor **slots[2] = {&p->w, &p->b};
  for (int i = 0; i < 2; i++) {
    dt_tensor *g = dt_grad(*slots[i]);
    if (!g) continue;
    dt_tensor *in = dt_inner(*slots[i]);
    dt_tensor *st = dt_mul_scalar(g, lr);
    dt_tensor *nw = dt_sub(in, st);
    dt_free(*slots[i]);
    *slots[i] = dt_require_grad(dt_from_inner(p->ad, nw));
    dt_free(g);
    dt_free(in);
    dt_free(st);
    dt_free(nw);
  }
}

static void sample(int k, float *x, float *y) {
  for (int r = 0; r < NB; r++) {
    for (int c = 0; c < XD; c++) x[r * XD + c] = cosf(0.23f * (float)(k * NB * XD + r * XD + c));
    y[r * YD + 0] = x[r * XD] * x[r * XD + 1];
    y[r * YD + 1] = 0.5f * x[r * XD + 2];
  }
}

static float run_step(const Config *c, Part *bb, Part *head, int k) {
  float x[NB * XD], y[NB * YD], lv = 0.0f;
  sample(k, x, y);
  dt_tensor *target = dt_from_floats(head->ad, y, 2, (const int64_t[]){NB, YD});
  dt_tensor *pred = NULL;
  switch (c->mode) {
  case MODE_TRAIN: {
    dt_tensor *xt = dt_from_floats(bb->ad, x, 2, (const int64_t[]){NB, XD});
    dt_tensor *feat = part_apply(bb, xt, 1);
    pred = part_apply(head, feat, 0);
    dt_free(feat);
    dt_free(xt);
    break;
  }
  case MODE_FINETUNE: {
    dt_tensor *f = frozen_features(bb, x);
    dt_tensor *fh = dt_to_device(f, dt_inner_device(head->ad));
    dt_tensor *fw = dt_from_inner(head->ad, fh);
    pred = part_apply(head, fw, 0);
    dt_free(f);
    dt_free(fh);
    dt_free(fw);
    break;
  }
  case MODE_EVAL: {
    dt_tensor *f = frozen_features(bb, x);
    dt_tensor *fh = dt_to_device(f, dt_inner_device(head->ad));
    dt_tensor *w = dt_inner(head->w), *b = dt_inner(head->b);
    dt_tensor *z = dt_matmul(fh, w);
    dt_tensor *o = dt_add(z, b);
    dt_tensor *ti = dt_inner(target);
    dt_tensor *l = dt_mse_loss(o, ti);
    dt_read_floats(l, &lv, 1);
    dt_tensor *tmp[] = {f, fh, w, b, z, o, ti, l, target};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++) dt_free(tmp[i]);
    return lv;
  }
  }
  dt_tensor *loss = dt_mse_loss(pred, target);
  dt_tensor *li = dt_inner(loss);
  dt_read_floats(li, &lv, 1);
  dt_backward(loss);
  if (c->mode == MODE_TRAIN) part_sgd(bb, c->lr);
  part_sgd(head, c->lr);
  dt_free(li);
  dt_free(loss);
  dt_free(pred);
  dt_free(target);
  return lv;
}

int main(int argc, char **argv) {
  Config cfg;
  if (parse_config(argc, argv, &cfg) != 0) {
    fprintf(stderr, "usage: %s --mode train|finetune|eval [--offload-head] [--steps N]\n",
            argv[0]);
    return 2;
  }
  dt_device accel = dt_sim(cfg.accel);
  dt_device head_dev = cfg.offload_head ? dt_cpu() : accel;

  Part backbone, head;
  part_init(&backbone, "backbone", accel, XD, FD, 5);
  part_init(&head, "head", head_dev, FD, YD, 6);

  float running = 0.0f;
  for (int k = 0; k < cfg.steps; k++) {
    float lv = run_step(&cfg, &backbone, &head, k);
    running = k ? 0.9f * running + 0.1f * lv : lv;
    if (k % 3 == 0) printf("step %d loss %.5f (avg %.5f)\n", k, lv, running);
  }
  part_free(&backbone);
  part_free(&head);
  return 0;
}
