// Curriculum learning: difficulty grows stage by stage; the easy stage runs on the host,
// then parameters and RMSprop state migrate to CURRICULUM_DEVICE. Gradient accumulation,
// global-norm clipping, a per-device constant cache and an evaluation callback.
// run-env: CURRICULUM_DEVICE=sim1
// run-args: 7 2
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 5
#define HID 7
#define MB 4
#define NP 3

typedef struct Loader {
  int cursor;
  void (*sample)(struct Loader *, int difficulty, float *x, float *y);
} Loader;

typedef struct Net {
  dt_tensor *p[NP];  /* w1 [IN,HID], w2 [HID,1], b2 [1] : plain */
  dt_tensor *ms[NP]; /* RMSprop mean squares, same device as p */
  dt_device dev;
} Net;

typedef void (*eval_cb)(const Net *, int stage, float loss);

static void sample_poly(Loader *l, int difficulty, float *x, float *y) {
  for (int r = 0; r < MB; r++) {
    float acc = 0.0f;
    for (int c = 0; c < IN; c++) {
      float v = (float)(((l->cursor + r) * 3 + c * 5) % 13) / 13.0f - 0.5f;
      x[r * IN + c] = v;
      acc += c <= difficulty ? v * (float)(c + 1) : 0.0f;
    }
    y[r] = difficulty > 1 ? tanhf(acc) : acc;
  }
  l->cursor += MB;
}

static dt_device device_from_env(void) {
  const char *s = getenv("CURRICULUM_DEVICE");
  if (!s || strcmp(s, "cpu") == 0) return dt_cpu();
  if (strcmp(s, "sim1") == 0) return dt_sim(1);
  if (strcmp(s, "cuda") == 0 && dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return dt_sim(0);
}

/* a small cache of the label-noise floor per device: recreated when the device changes */
static dt_tensor *noise_floor(dt_device d) {
  static dt_tensor *cached = NULL;
  static dt_device cached_dev;
  int64_t s[2] = {MB, 1};
  if (!cached || !dt_device_equal(cached_dev, d)) {
    dt_free(cached);
    cached = dt_full(d, 0.01f, 2, s);
    cached_dev = d;
  }
  return cached;
}

static void net_init(Net *n, dt_device d) {
  int64_t s0[2] = {IN, HID}, s1[2] = {HID, 1}, s2[1] = {1};
  n->dev = d;
  n->p[0] = dt_mul_scalar(dt_randn(d, 1, 2, s0), 0.4f);
  n->p[1] = dt_mul_scalar(dt_randn(d, 2, 2, s1), 0.4f);
  n->p[2] = dt_zeros(d, DT_FLOAT, 1, s2);
  for (int i = 0; i < NP; i++) n->ms[i] = dt_mul_scalar(n->p[i], 0.0f);
}

static void net_migrate(Net *n, dt_device d) {
  for (int i = 0; i < NP; i++) {
    dt_tensor *p = dt_to_device(n->p[i], d), *m = dt_to_device(n->ms[i], d);
    dt_free(n->p[i]); dt_free(n->ms[i]);
    n->p[i] = p; n->ms[i] = m;
  }
  n->dev = d;
}

static dt_tensor *forward(dt_tensor *const *p, dt_tensor *x) {
  dt_tensor *h = dt_tanh(dt_matmul(x, p[0]));
  dt_tensor *o = dt_add(dt_matmul(h, p[1]), p[2]);
  dt_free(h);
  return o;
}

static float micro_step(Net *n, Loader *ld, int diff, dt_tensor **acc) {
  float xh[MB * IN], yh[MB];
  int64_t xs[2] = {MB, IN}, ys[2] = {MB, 1};
  dt_device ad = dt_autodiff(n->dev);
  ld->sample(ld, diff, xh, yh);
  dt_tensor *tp[NP];
  for (int i = 0; i < NP; i++) tp[i] = dt_require_grad(dt_from_inner(ad, n->p[i]));
  dt_tensor *x = dt_from_floats(ad, xh, 2, xs);
  dt_tensor *y = dt_add(dt_from_floats(n->dev, yh, 2, ys), noise_floor(n->dev));
  dt_tensor *loss = dt_mse_loss(forward(tp, x), dt_from_inner(ad, y));
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  for (int i = 0; i < NP; i++) {
    dt_tensor *g = dt_grad(tp[i]);
    if (!g) continue;
    dt_tensor *a = acc[i] ? dt_add(acc[i], g) : dt_mul_scalar(g, 1.0f);
    dt_free(acc[i]); dt_free(g); dt_free(tp[i]);
    acc[i] = a;
  }
  dt_free(x); dt_free(y); dt_free(loss);
  return lv;
}

static void rmsprop_apply(Net *n, dt_tensor **acc, int accum, float lr, float clip) {
  float sq = 0.0f;
  for (int i = 0; i < NP; i++) {
    if (!acc[i]) continue;
    float v = 0.0f;
    dt_tensor *s = dt_sum(dt_mul(acc[i], acc[i]));
    dt_read_floats(s, &v, 1);
    sq += v;
    dt_free(s);
  }
  float norm = sqrtf(sq) / (float)accum;
  float scale = (norm > clip ? clip / norm : 1.0f) / (float)accum;
  for (int i = 0; i < NP; i++) {
    if (!acc[i]) continue;
    dt_tensor *g = dt_mul_scalar(acc[i], scale);
    dt_tensor *ms = dt_add(dt_mul_scalar(n->ms[i], 0.95f), dt_mul_scalar(dt_mul(g, g), 0.05f));
    dt_tensor *den = dt_add_scalar(dt_exp(dt_mul_scalar(dt_log(dt_add_scalar(ms, 1e-8f)), 0.5f)), 1e-5f);
    dt_tensor *np_ = dt_sub(n->p[i], dt_mul_scalar(dt_div(g, den), lr));
    dt_free(n->p[i]); dt_free(n->ms[i]); dt_free(acc[i]); dt_free(g); dt_free(den);
    n->p[i] = np_; n->ms[i] = ms; acc[i] = NULL;
  }
}

static void print_eval(const Net *n, int stage, float loss) {
  char name[32];
  dt_device_name(n->dev, name, sizeof name);
  printf("stage %d on %s: mean loss %.4f\n", stage, name, loss);
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 4;
  int accum = argc > 2 ? atoi(argv[2]) : 1;
  if (accum < 1) accum = 1;
  int stages = 3, per_stage = epochs / stages + 1;
  dt_device target = device_from_env();
  Loader ld = {0, sample_poly};
  eval_cb on_stage = print_eval;
  Net n;
  net_init(&n, dt_cpu());
  dt_tensor *acc[NP] = {NULL, NULL, NULL};
  for (int e = 0; e < epochs; e++) {
    int stage = e / per_stage;
    if (stage == 1 && !dt_device_equal(n.dev, target)) net_migrate(&n, target);
    float total = 0.0f;
    int batches = 2 + stage;
    for (int b = 0; b < batches * accum; b++) {
      total += micro_step(&n, &ld, stage + 1, acc);
      if ((b + 1) % accum == 0) rmsprop_apply(&n, acc, accum, 0.01f, 1.0f);
    }
    if ((e + 1) % per_stage == 0 || e + 1 == epochs) on_stage(&n, stage, total / (float)(batches * accum));
  }
  for (int i = 0; i < NP; i++) { dt_free(n.p[i]); dt_free(n.ms[i]); }
  return 0;
}
