/* corpus/examples/train_mlp.c — a small training program written against dt: a two-layer
 * perceptron learns which points of the plane lie inside the unit circle (a synthetic data set),
 * with reverse-mode autodiff and plain SGD. It runs on autodiff<cpu> by default, on
 * autodiff<sim:0> with `--device sim` and on autodiff<cuda:0> with `--device cuda`.
 *
 *   train_mlp [--device cpu|sim|cuda] [--steps N] [--lr X] [--hidden H]
 *
 * Exit status: 0 when the loss fell to under half its first value, 1 when it did not, 2 on bad
 * usage or an unavailable backend. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dt/dt.h>

typedef struct config {
  const char *device;
  int steps;
  float lr;
  int hidden;
  int points;
} config;

/* The model: every parameter is a trainable leaf on one autodiff device. */
typedef struct mlp {
  dt_device dev;
  dt_tensor *w1, *b1, *w2, *b2;
} mlp;

/* The data set: points in [-1.5, 1.5]^2, labels 1 inside the unit circle, else 0. */
typedef struct dataset {
  dt_tensor *x; /* [n, 2] */
  dt_tensor *y; /* [n, 1] */
  int n;
} dataset;

static int parse_args(int argc, char **argv, config *cfg) {
  cfg->device = "cpu";
  cfg->steps = 500;
  cfg->lr = 0.5f;
  cfg->hidden = 32;
  cfg->points = 256;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      cfg->device = argv[++i];
    } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      cfg->steps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--lr") == 0 && i + 1 < argc) {
      cfg->lr = (float)atof(argv[++i]);
    } else if (strcmp(argv[i], "--hidden") == 0 && i + 1 < argc) {
      cfg->hidden = atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: %s [--device cpu|sim|cuda] [--steps N] [--lr X] [--hidden H]\n",
              argv[0]);
      return -1;
    }
  }
  return cfg->steps > 0 && cfg->hidden > 0 ? 0 : -1;
}

/* The autodiff device for a backend name, after checking the backend is there. */
static int pick_device(const char *name, dt_device *out) {
  dt_backend backend;
  dt_device inner;
  if (strcmp(name, "cpu") == 0) {
    backend = DT_BACKEND_CPU;
    inner = dt_cpu();
  } else if (strcmp(name, "sim") == 0) {
    backend = DT_BACKEND_SIM;
    inner = dt_sim(0);
  } else if (strcmp(name, "cuda") == 0) {
    backend = DT_BACKEND_CUDA;
    inner = dt_cuda(0);
  } else {
    fprintf(stderr, "unknown device '%s' (cpu, sim or cuda)\n", name);
    return -1;
  }
  if (!dt_backend_available(backend)) {
    fprintf(stderr, "the %s backend is not available on this machine\n", name);
    return -1;
  }
  *out = dt_autodiff(inner);
  return 0;
}

static uint64_t next_random(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return *state >> 11;
}

static int make_dataset(dataset *d, dt_device dev, int n, uint64_t seed) {
  float *x = malloc((size_t)n * 2 * sizeof *x);
  float *y = malloc((size_t)n * sizeof *y);
  if (x == NULL || y == NULL) {
    free(x);
    free(y);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    float a = (float)((double)next_random(&seed) / 9007199254740992.0) * 3.0f - 1.5f;
    float b = (float)((double)next_random(&seed) / 9007199254740992.0) * 3.0f - 1.5f;
    x[2 * i] = a;
    x[2 * i + 1] = b;
    y[i] = a * a + b * b < 1.0f ? 1.0f : 0.0f;
  }
  int64_t xshape[2] = {n, 2};
  int64_t yshape[2] = {n, 1};
  d->x = dt_from_floats(dev, x, 2, xshape);
  d->y = dt_from_floats(dev, y, 2, yshape);
  d->n = n;
  free(x);
  free(y);
  return 0;
}

static dt_tensor *init_param(dt_device dev, uint64_t seed, int rank, const int64_t *shape,
                             float scale) {
  dt_tensor *r = dt_randn(dev, seed, rank, shape);
  dt_tensor *p = dt_mul_scalar(r, scale);
  dt_free(r);
  return dt_require_grad(p);
}

static void mlp_init(mlp *m, dt_device dev, int hidden) {
  int64_t w1[2] = {2, hidden};
  int64_t b1[1] = {hidden};
  int64_t w2[2] = {hidden, 1};
  int64_t b2[1] = {1};
  m->dev = dev;
  m->w1 = init_param(dev, 1, 2, w1, 1.0f);
  m->b1 = init_param(dev, 2, 1, b1, 0.1f);
  m->w2 = init_param(dev, 3, 2, w2, 0.5f);
  m->b2 = init_param(dev, 4, 1, b2, 0.1f);
}

static void mlp_free(mlp *m) {
  dt_free(m->w1);
  dt_free(m->b1);
  dt_free(m->w2);
  dt_free(m->b2);
}

/* sigmoid(tanh(x W1 + b1) W2 + b2): the probability of "inside". */
static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *xw = dt_matmul(x, m->w1);
  dt_tensor *z1 = dt_add(xw, m->b1);
  dt_tensor *h = dt_tanh(z1);
  dt_tensor *hw = dt_matmul(h, m->w2);
  dt_tensor *z2 = dt_add(hw, m->b2);
  dt_tensor *p = dt_sigmoid(z2);
  dt_free(xw);
  dt_free(z1);
  dt_free(h);
  dt_free(hw);
  dt_free(z2);
  return p;
}

/* param <- param - lr * grad, as a fresh leaf: the update itself is not part of any graph. */
static void sgd_update(dt_tensor **param, dt_device dev, float lr) {
  dt_tensor *grad = dt_grad(*param);
  if (grad == NULL) return; /* no gradient reached it */
  dt_tensor *value = dt_inner(*param);
  dt_tensor *step = dt_mul_scalar(grad, -lr);
  dt_tensor *next = dt_add(value, step);
  dt_free(*param);
  *param = dt_require_grad(dt_from_inner(dev, next));
  dt_free(grad);
  dt_free(value);
  dt_free(step);
  dt_free(next);
}

/* One step over the whole set; returns the loss before the update. */
static float train_step(mlp *m, const dataset *d, float lr) {
  dt_tensor *p = mlp_forward(m, d->x);
  dt_tensor *loss = dt_mse_loss(p, d->y);
  float value = 0;
  dt_backward(loss);
  dt_read_floats(loss, &value, 1);
  dt_free(p);
  dt_free(loss);
  sgd_update(&m->w1, m->dev, lr);
  sgd_update(&m->b1, m->dev, lr);
  sgd_update(&m->w2, m->dev, lr);
  sgd_update(&m->b2, m->dev, lr);
  return value;
}

/* Share of points classified right (probability > 0.5 against the label). */
static double accuracy(const mlp *m, const dataset *d) {
  dt_tensor *p = mlp_forward(m, d->x);
  dt_tensor *half = dt_full(m->dev, 0.5f, 0, NULL);
  dt_tensor *said = dt_greater(p, half);
  dt_tensor *truth = dt_greater(d->y, half);
  int64_t *a = malloc((size_t)d->n * sizeof *a);
  int64_t *b = malloc((size_t)d->n * sizeof *b);
  int right = 0;
  if (a != NULL && b != NULL && dt_read_ints(said, a, d->n) == 0 &&
      dt_read_ints(truth, b, d->n) == 0) {
    for (int i = 0; i < d->n; i++) right += a[i] == b[i];
  }
  free(a);
  free(b);
  dt_free(p);
  dt_free(half);
  dt_free(said);
  dt_free(truth);
  return (double)right / d->n;
}

int main(int argc, char **argv) {
  config cfg;
  dt_device dev;
  if (parse_args(argc, argv, &cfg) != 0 || pick_device(cfg.device, &dev) != 0) return 2;

  dataset data;
  if (make_dataset(&data, dev, cfg.points, 2024) != 0) return 2;
  mlp model;
  mlp_init(&model, dev, cfg.hidden);

  char name[64];
  dt_device_name(dev, name, sizeof name);
  printf("training a 2-%d-1 perceptron on %s, %d points, %d steps\n", cfg.hidden, name,
         data.n, cfg.steps);
  float first = 0, last = 0;
  for (int step = 0; step < cfg.steps; step++) {
    last = train_step(&model, &data, cfg.lr);
    if (step == 0) first = last;
    if (step % 100 == 0 || step == cfg.steps - 1) printf("step %4d  loss %.5f\n", step, last);
  }
  printf("accuracy %.1f%%\n", 100.0 * accuracy(&model, &data));
  int fell = last < 0.5f * first;
  printf("loss %s from %.5f to %.5f\n", fell ? "fell" : "did not fall enough", first, last);

  mlp_free(&model);
  dt_free(data.x);
  dt_free(data.y);
  return fell ? 0 : 1;
}
