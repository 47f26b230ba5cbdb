// blind round d15 — gradient accumulation over micro-batches, accumulators optionally on the host.
// run-args: --accum-on-host --steps 2
//
// The model trains on autodiff<sim:0> (or autodiff<cpu> with --cpu). With --accum-on-host the
// gradient accumulators are allocated on the host to save device memory, and the apply step
// correctly moves them back — but the per-micro-batch add forgets to bring the gradient over
// first. With --eval, a host-side evaluation multiplies a host batch by the inner weights,
// which is only right when training on the cpu.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D_IN 4
#define D_HID 6
#define MICRO 3
#define N_PARAMS 3

typedef struct {
  int accum_steps;
  int accum_on_host;
  int eval;
  int use_cpu;
  int steps;
  float lr;
} train_cfg;

typedef struct {
  dt_device dev; /* autodiff */
  dt_tensor *p[N_PARAMS]; /* w1 [D_IN, D_HID], b1 [D_HID], w2 [D_HID, 1] */
} regressor;

typedef struct {
  dt_device where;
  dt_tensor *sum[N_PARAMS];
  int count;
} grad_accum;

static const int64_t SHAPES[N_PARAMS][2] = {{D_IN, D_HID}, {D_HID, 0}, {D_HID, 1}};
static const int RANKS[N_PARAMS] = {2, 1, 2};

static train_cfg parse_args(int argc, char **argv) {
  train_cfg c = {4, 0, 0, 0, 3, 0.05f};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--accum-on-host") == 0) c.accum_on_host = 1;
    else if (strcmp(argv[i], "--eval") == 0) c.eval = 1;
    else if (strcmp(argv[i], "--cpu") == 0) c.use_cpu = 1;
    else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) c.steps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--accum") == 0 && i + 1 < argc) c.accum_steps = atoi(argv[++i]);
  }
  if (c.accum_steps < 1) c.accum_steps = 1;
  if (c.steps < 1) c.steps = 1;
  return c;
}

static void regressor_init(regressor *r, dt_device dev) {
  r->dev = dev;
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *init = dt_randn(dt_inner_device(dev), 40 + (uint64_t)i, RANKS[i], SHAPES[i]);
    dt_tensor *small = dt_mul_scalar(init, 0.2f);
    r->p[i] = dt_require_grad(dt_from_inner(dev, small));
    dt_free(init);
    dt_free(small);
  }
}

static dt_tensor *regressor_forward(const regressor *r, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, r->p[0]);
  dt_tensor *b = dt_add(a, r->p[1]);
  dt_tensor *h = dt_tanh(b);
  dt_tensor *y = dt_matmul(h, r->p[2]);
  dt_free(a);
  dt_free(b);
  dt_free(h);
  return y;
}

static void accum_reset(grad_accum *acc) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(acc->sum[i]);
    acc->sum[i] = dt_zeros(acc->where, DT_FLOAT, RANKS[i], SHAPES[i]);
  }
  acc->count = 0;
}

static void accum_init(grad_accum *acc, const train_cfg *cfg, dt_device model_dev) {
  acc->where = cfg->accum_on_host ? dt_cpu() : dt_inner_device(model_dev);
  for (int i = 0; i < N_PARAMS; i++) acc->sum[i] = NULL;
  accum_reset(acc);
}

static void accum_add(grad_accum *acc, int i, const dt_tensor *g) {
  dt_tensor *s = dt_add(acc->sum[i], g); // expect-warning: backend-mismatch
  dt_free(acc->sum[i]);
  acc->sum[i] = s;
}

static void make_micro_batch(dt_device dev, int step, int micro, dt_tensor **x, dt_tensor **y) {
  float xs[MICRO * D_IN], ys[MICRO];
  for (int i = 0; i < MICRO; i++) {
    float t = 0.0f;
    for (int j = 0; j < D_IN; j++) {
      xs[i * D_IN + j] = (float)(((step * 5 + micro * 3 + i) * (j + 1)) % 7) / 7.0f - 0.4f;
      t += (j % 2 ? -0.5f : 0.8f) * xs[i * D_IN + j];
    }
    ys[i] = t;
  }
  *x = dt_from_floats(dev, xs, 2, (const int64_t[]){MICRO, D_IN});
  *y = dt_from_floats(dev, ys, 2, (const int64_t[]){MICRO, 1});
}

static float micro_step(regressor *r, grad_accum *acc, const train_cfg *cfg, int step, int micro) {
  dt_tensor *x, *y;
  make_micro_batch(r->dev, step, micro, &x, &y);
  dt_tensor *pred = regressor_forward(r, x);
  dt_tensor *mse = dt_mse_loss(pred, y);
  dt_tensor *loss = dt_mul_scalar(mse, 1.0f / (float)cfg->accum_steps);
  float lv = 0.0f;
  dt_read_floats(mse, &lv, 1);
  dt_backward(loss);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *g = dt_grad(r->p[i]);
    if (g) accum_add(acc, i, g);
    dt_free(g);
  }
  acc->count++;
  dt_free(x);
  dt_free(y);
  dt_free(pred);
  dt_free(mse);
  dt_free(loss);
  return lv;
}

/* The accumulators may be on the host: bring each one to the weights' inner device first. */
static void apply_accumulated(regressor *r, grad_accum *acc, float lr) {
  dt_device inner = dt_inner_device(r->dev);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *g = dt_to_device(acc->sum[i], inner);
    dt_tensor *w = dt_inner(r->p[i]);
    dt_tensor *step = dt_mul_scalar(g, lr);
    dt_tensor *w_new = dt_sub(w, step);
    dt_free(r->p[i]);
    r->p[i] = dt_require_grad(dt_from_inner(r->dev, w_new));
    dt_free(g);
    dt_free(w);
    dt_free(step);
    dt_free(w_new);
  }
  accum_reset(acc);
}

static float evaluate_host(const regressor *r) {
  dt_tensor *x, *y;
  make_micro_batch(dt_cpu(), 77, 0, &x, &y);
  dt_tensor *w0 = dt_inner(r->p[0]);
  dt_tensor *a = dt_matmul(x, w0); // expect-warning: backend-mismatch
  float v = 0.0f;
  if (a) {
    dt_tensor *s = dt_sum(a);
    dt_read_floats(s, &v, 1);
    dt_free(s);
  }
  dt_free(a);
  dt_free(w0);
  dt_free(x);
  dt_free(y);
  return v;
}

int main(int argc, char **argv) {
  train_cfg cfg = parse_args(argc, argv);
  dt_device base = cfg.use_cpu ? dt_cpu() : dt_sim(0);
  regressor model;
  regressor_init(&model, dt_autodiff(base));
  grad_accum acc;
  accum_init(&acc, &cfg, model.dev);
  for (int step = 0; step < cfg.steps; step++) {
    float total = 0.0f;
    for (int m = 0; m < cfg.accum_steps; m++) total += micro_step(&model, &acc, &cfg, step, m);
    apply_accumulated(&model, &acc, cfg.lr);
    printf("step %d: mean micro loss %.4f\n", step, total / (float)cfg.accum_steps);
  }
  if (cfg.eval) printf("host probe: %.4f\n", evaluate_host(&model));
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(model.p[i]);
    dt_free(acc.sum[i]);
  }
  return 0;
}
