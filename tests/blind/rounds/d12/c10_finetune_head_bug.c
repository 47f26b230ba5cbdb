// provenance: blind round d12
/* Linear-probe fine-tuning: a frozen random-feature backbone (plain tensors on sim:0) feeds
 * a trainable head. The run configuration stores the training device already wrapped in
 * autodiff, and the head builder wraps whatever device it is handed. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 6
#define FEAT 12
#define CLASSES 3
#define BATCH 6

typedef struct {
  dt_device device;      /* training device */
  dt_device backbone_device;
  float lr;
  int steps;
  const char *run_name;
} run_config_t;

typedef struct {
  dt_tensor *proj;       /* [IN, FEAT] frozen */
  dt_tensor *bias;       /* [FEAT] frozen */
} backbone_t;

typedef struct {
  dt_device ad;
  dt_tensor *w, *b;
  dt_tensor *mom_w, *mom_b;
} head_t;

static run_config_t default_config(void) {
  run_config_t c;
  c.backbone_device = dt_sim(0);
  c.device = dt_autodiff(dt_sim(0));
  c.lr = 0.2f;
  c.steps = 15;
  c.run_name = "probe";
  return c;
}

static void backbone_load(backbone_t *bb, dt_device d) {
  int64_t ps[2] = {IN, FEAT}, bs[1] = {FEAT};
  bb->proj = dt_randn(d, 4242, 2, ps);
  bb->bias = dt_randn(d, 4343, 1, bs);
}

static dt_tensor *backbone_features(const backbone_t *bb, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, bb->proj);
  dt_tensor *hb = dt_add(h, bb->bias);
  dt_tensor *f = dt_relu(hb);
  dt_free(h);
  dt_free(hb);
  return f;
}

static void head_init(head_t *h, dt_device train_dev) {
  int64_t ws[2] = {FEAT, CLASSES}, bs[1] = {CLASSES};
  h->ad = dt_autodiff(train_dev); // expect-error: autodiff-nested
  dt_device inner = dt_inner_device(h->ad);
  h->w = dt_require_grad(dt_zeros(h->ad, DT_FLOAT, 2, ws));
  h->b = dt_require_grad(dt_zeros(h->ad, DT_FLOAT, 1, bs));
  h->mom_w = dt_zeros(inner, DT_FLOAT, 2, ws);
  h->mom_b = dt_zeros(inner, DT_FLOAT, 1, bs);
}

static void head_momentum(dt_tensor **p, dt_tensor **mom, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  dt_tensor *m9 = dt_mul_scalar(*mom, 0.9f);
  dt_tensor *mn = dt_add(m9, g);
  dt_tensor *st = dt_mul_scalar(mn, lr);
  dt_tensor *cur = dt_inner(*p);
  dt_tensor *nx = dt_sub(cur, st);
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(ad, nx));
  dt_free(*mom);
  *mom = mn;
  dt_free(g); dt_free(m9); dt_free(st); dt_free(cur); dt_free(nx);
}

static void make_batch(float *x, float *onehot, int step) {
  memset(onehot, 0, sizeof(float) * BATCH * CLASSES);
  for (int i = 0; i < BATCH; i++) {
    int cls = (i + step) % CLASSES;
    for (int j = 0; j < IN; j++) x[i * IN + j] = (j % CLASSES == cls ? 1.0f : -0.3f) + 0.01f * (float)step;
    onehot[i * CLASSES + cls] = 1.0f;
  }
}

/* plain evaluation: head weights pulled out of the graph, argmax against the labels */
static float probe_accuracy(const backbone_t *bb, const head_t *h, dt_device dev, int rounds) {
  float x[BATCH * IN], y[BATCH * CLASSES], scores[BATCH * CLASSES];
  int64_t xs[2] = {BATCH, IN};
  int correct = 0, total = 0;
  dt_tensor *w = dt_inner(h->w);
  dt_tensor *b = dt_inner(h->b);
  for (int r = 0; r < rounds; r++) {
    make_batch(x, y, 100 + r);
    dt_tensor *xt = dt_from_floats(dev, x, 2, xs);
    dt_tensor *feat = backbone_features(bb, xt);
    dt_tensor *lo = dt_matmul(feat, w);
    dt_tensor *lb = dt_add(lo, b);
    if (lb && dt_read_floats(lb, scores, BATCH * CLASSES) == 0) {
      for (int i = 0; i < BATCH; i++) {
        int best = 0, want = 0;
        for (int c = 1; c < CLASSES; c++) {
          if (scores[i * CLASSES + c] > scores[i * CLASSES + best]) best = c;
          if (y[i * CLASSES + c] > y[i * CLASSES + want]) want = c;
        }
        correct += best == want;
        total++;
      }
    }
    dt_free(xt); dt_free(feat); dt_free(lo); dt_free(lb);
  }
  dt_free(w);
  dt_free(b);
  return total ? (float)correct / (float)total : 0.0f;
}

int main(int argc, char **argv) {
  run_config_t cfg = default_config();
  if (argc > 1) cfg.steps = atoi(argv[1]);
  if (cfg.steps <= 0) cfg.steps = 1;
  backbone_t bb;
  head_t head;
  backbone_load(&bb, cfg.backbone_device);
  head_init(&head, cfg.device);

  float x[BATCH * IN], y[BATCH * CLASSES];
  int64_t xs[2] = {BATCH, IN}, ys[2] = {BATCH, CLASSES};
  for (int step = 0; step < cfg.steps; step++) {
    make_batch(x, y, step);
    dt_tensor *xt = dt_from_floats(cfg.backbone_device, x, 2, xs);
    dt_tensor *feat = backbone_features(&bb, xt);
    dt_tensor *feat_ad = dt_to_device(feat, head.ad); // expect-error: autodiff-expected
    dt_tensor *yt = dt_from_floats(head.ad, y, 2, ys);
    dt_tensor *logits = dt_matmul(feat_ad, head.w);
    dt_tensor *lb = dt_add(logits, head.b);
    dt_tensor *pr = dt_sigmoid(lb);
    dt_tensor *loss = dt_mse_loss(pr, yt);
    float lv = 0.0f;
    if (dt_read_floats(loss, &lv, 1) == 0 && step % 5 == 0)
      printf("[%s] step %d loss %.4f\n", cfg.run_name, step, lv);
    dt_backward(loss);
    head_momentum(&head.w, &head.mom_w, head.ad, cfg.lr);
    head_momentum(&head.b, &head.mom_b, head.ad, cfg.lr);
    dt_free(xt); dt_free(feat); dt_free(feat_ad); dt_free(yt);
    dt_free(logits); dt_free(lb); dt_free(pr); dt_free(loss);
  }
  printf("[%s] probe accuracy %.3f\n", cfg.run_name,
         probe_accuracy(&bb, &head, cfg.backbone_device, 4));
  dt_free(bb.proj); dt_free(bb.bias);
  dt_free(head.w); dt_free(head.b); dt_free(head.mom_w); dt_free(head.mom_b);
  return 0;
}
