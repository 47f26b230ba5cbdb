// provenance: blind round d11
// Two-layer MLP regression trained with plain SGD on a device picked from the command line.
// usage: mlp_sgd [--device cpu|sim0|sim1] [--epochs N] [--lr X]
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define IN_DIM 4
#define HID_DIM 8
#define OUT_DIM 1
#define BATCH 16
#define N_BATCHES 6

typedef struct {
  const char *device;
  int epochs;
  float lr;
  int verbose;
} train_config;

typedef struct {
  dt_device dev;     /* autodiff device */
  dt_tensor *w1, *b1, *w2, *b2;
} mlp;

typedef struct {
  float xs[N_BATCHES][BATCH * IN_DIM];
  float ys[N_BATCHES][BATCH * OUT_DIM];
  int cursor;
} loader;

static dt_device parse_device(const char *s) {
  if (strcmp(s, "sim0") == 0) return dt_sim(0);
  if (strcmp(s, "sim1") == 0) return dt_sim(1);
  return dt_cpu();
}

static void parse_args(train_config *cfg, int argc, char **argv) {
  cfg->device = "cpu";
  cfg->epochs = 3;
  cfg->lr = 0.05f;
  cfg->verbose = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) cfg->device = argv[++i];
    else if (strcmp(argv[i], "--epochs") == 0 && i + 1 < argc) cfg->epochs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--lr") == 0 && i + 1 < argc) cfg->lr = (float)atof(argv[++i]);
    else if (strcmp(argv[i], "-v") == 0) cfg->verbose = 1;
  }
  if (cfg->epochs < 1 || cfg->epochs > 50) cfg->epochs = 3;
}

static void loader_init(loader *ld, unsigned seed) {
  srand(seed);
  for (int b = 0; b < N_BATCHES; b++) {
    for (int i = 0; i < BATCH; i++) {
      float acc = 0.0f;
      for (int j = 0; j < IN_DIM; j++) {
        float v = (float)rand() / (float)RAND_MAX - 0.5f;
        ld->xs[b][i * IN_DIM + j] = v;
        acc += v * (float)(j + 1);
      }
      ld->ys[b][i] = sinf(acc);
    }
  }
  ld->cursor = 0;
}

/* hands out the next batch as plain tensors on `dev` (the inner device) */
static int loader_next(loader *ld, dt_device dev, dt_tensor **x, dt_tensor **y) {
  if (ld->cursor >= N_BATCHES) return 0;
  int64_t xs[2] = {BATCH, IN_DIM};
  int64_t ys[2] = {BATCH, OUT_DIM};
  *x = dt_from_floats(dev, ld->xs[ld->cursor], 2, xs);
  *y = dt_from_floats(dev, ld->ys[ld->cursor], 2, ys);
  ld->cursor++;
  return 1;
}

static void loader_reset(loader *ld) { ld->cursor = 0; }

static dt_tensor *param(dt_device ad, uint64_t seed, int64_t r, int64_t c, float scale) {
  int64_t shape[2] = {r, c};
  dt_tensor *raw = dt_randn(dt_inner_device(ad), seed, 2, shape);
  dt_tensor *scaled = dt_mul_scalar(raw, scale);
  dt_free(raw);
  dt_tensor *p = dt_from_inner(ad, scaled);
  dt_free(scaled);
  return dt_require_grad(p);
}

static void mlp_init(mlp *m, dt_device inner) {
  m->dev = dt_autodiff(inner);
  m->w1 = param(m->dev, 11, IN_DIM, HID_DIM, 0.5f);
  m->b1 = param(m->dev, 12, 1, HID_DIM, 0.01f);
  m->w2 = param(m->dev, 13, HID_DIM, OUT_DIM, 0.5f);
  m->b2 = param(m->dev, 14, 1, OUT_DIM, 0.01f);
}

static void mlp_free(mlp *m) {
  dt_free(m->w1); dt_free(m->b1); dt_free(m->w2); dt_free(m->b2);
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w1);
  dt_tensor *hb = dt_add(h, m->b1);
  dt_tensor *a = dt_tanh(hb);
  dt_tensor *o = dt_matmul(a, m->w2);
  dt_tensor *out = dt_add(o, m->b2);
  dt_free(h); dt_free(hb); dt_free(a); dt_free(o);
  return out;
}

/* p <- p - lr * grad(p), rebuilt as a fresh leaf on the model's device */
static void sgd_update(dt_device ad, dt_tensor **p, float lr) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  dt_tensor *inner = dt_inner(*p);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *next = dt_sub(inner, step);
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(ad, next));
  dt_free(next); dt_free(step); dt_free(inner); dt_free(g);
}

static void mlp_step(mlp *m, float lr) {
  sgd_update(m->dev, &m->w1, lr);
  sgd_update(m->dev, &m->b1, lr);
  sgd_update(m->dev, &m->w2, lr);
  sgd_update(m->dev, &m->b2, lr);
}

static float scalar_of(const dt_tensor *t) {
  float v = 0.0f;
  dt_tensor *plain = dt_inner(t);
  dt_read_floats(plain, &v, 1);
  dt_free(plain);
  return v;
}

static float evaluate(const mlp *m, loader *ld) {
  dt_device inner = dt_inner_device(m->dev);
  dt_tensor *x, *y;
  float total = 0.0f;
  int n = 0;
  loader_reset(ld);
  while (loader_next(ld, inner, &x, &y)) {
    dt_tensor *xa = dt_from_inner(m->dev, x);
    dt_tensor *ya = dt_from_inner(m->dev, y);
    dt_tensor *pred = mlp_forward(m, xa);
    dt_tensor *frozen = dt_detach(pred);
    dt_tensor *loss = dt_mse_loss(frozen, ya);
    total += scalar_of(loss);
    n++;
    dt_free(loss); dt_free(frozen); dt_free(pred);
    dt_free(xa); dt_free(ya); dt_free(x); dt_free(y);
  }
  return n ? total / (float)n : 0.0f;
}

int main(int argc, char **argv) {
  train_config cfg;
  parse_args(&cfg, argc, argv);
  dt_device dev = parse_device(cfg.device);
  char name[32];
  dt_device_name(dev, name, sizeof name);

  loader ld;
  loader_init(&ld, 1234u);
  mlp model;
  mlp_init(&model, dev);
  printf("training on %s for %d epochs (lr %.3f)\n", name, cfg.epochs, cfg.lr);

  float first = evaluate(&model, &ld);
  for (int epoch = 0; epoch < cfg.epochs; epoch++) {
    dt_tensor *x, *y;
    float running = 0.0f;
    int steps = 0;
    loader_reset(&ld);
    while (loader_next(&ld, dev, &x, &y)) {
      dt_tensor *xa = dt_from_inner(model.dev, x);
      dt_tensor *ya = dt_from_inner(model.dev, y);
      dt_tensor *pred = mlp_forward(&model, xa);
      dt_tensor *loss = dt_mse_loss(pred, ya);
      if (dt_backward(loss) != 0) {
        fprintf(stderr, "backward failed: %s\n", dt_last_error());
        return 1;
      }
      running += scalar_of(loss);
      steps++;
      mlp_step(&model, cfg.lr);
      dt_free(loss); dt_free(pred); dt_free(xa); dt_free(ya);
      dt_free(x); dt_free(y);
    }
    if (cfg.verbose || epoch == cfg.epochs - 1)
      printf("epoch %d: train loss %.5f\n", epoch, running / (float)steps);
  }
  float last = evaluate(&model, &ld);
  printf("eval loss %.5f -> %.5f\n", first, last);
  mlp_free(&model);
  if (!isfinite(last)) fprintf(stderr, "warning: eval loss diverged, try a smaller --lr\n");
  return 0;
}
