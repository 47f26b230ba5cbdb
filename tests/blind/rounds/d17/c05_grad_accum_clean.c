/* c05_grad_accum_clean.c — logistic regression trained with gradient accumulation: each
 * optimizer step sums the gradients of MICRO micro-batches, clips them element-wise with
 * dt_greater / dt_where and applies one SGD step. The device comes from the command line
 * (--sim1 picks autodiff<sim:1>, --host picks autodiff<cpu>, default autodiff<sim:0>) and is
 * then used consistently. Patterns a naive analyzer may trip on: an accumulator that starts
 * as NULL and becomes the first gradient, a running loss kept on the autodiff device and fed
 * with dt_detach'ed losses, a clip bound built from the *inner* device, and an early exit.
 * Correct on every path. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEAT 5
#define MICRO 3
#define MB 4
#define MAX_STEPS 6

typedef struct LogReg {
  dt_device dev;
  dt_tensor *w; /* [FEAT, 1] */
  dt_tensor *b; /* [1] */
} LogReg;

typedef struct Accum {
  dt_tensor *gw, *gb;
  int count;
} Accum;

static dt_device device_from_args(int argc, char **argv) {
  dt_device d = dt_sim(0);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--sim1") == 0)
      d = dt_sim(1);
    else if (strcmp(argv[i], "--host") == 0)
      d = dt_cpu();
  }
  return dt_autodiff(d);
}

static void logreg_init(LogReg *m, dt_device ad) {
  m->dev = ad;
  m->w = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){FEAT, 1}));
  m->b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){1}));
}

static void micro_batch(dt_device ad, int step, int k, dt_tensor **x, dt_tensor **y) {
  float xs[MB * FEAT], ys[MB];
  for (int i = 0; i < MB; i++) {
    float s = 0.0f;
    for (int j = 0; j < FEAT; j++) {
      xs[i * FEAT + j] = (float)(((step * 7 + k * 3 + i * 5 + j) % 9) - 4) * 0.25f;
      s += xs[i * FEAT + j] * (j % 2 ? 1.0f : -1.0f);
    }
    ys[i] = s > 0.0f ? 1.0f : 0.0f;
  }
  dt_device in = dt_inner_device(ad);
  dt_tensor *xp = dt_from_floats(in, xs, 2, (const int64_t[]){MB, FEAT});
  dt_tensor *yp = dt_from_floats(in, ys, 2, (const int64_t[]){MB, 1});
  *x = dt_from_inner(ad, xp);
  *y = dt_from_inner(ad, yp);
  dt_free(xp);
  dt_free(yp);
}

static dt_tensor *accumulate(dt_tensor *acc, dt_tensor *g) {
  if (!acc)
    return g;
  dt_tensor *sum = dt_add(acc, g);
  dt_free(acc);
  dt_free(g);
  return sum;
}

static dt_tensor *clip(dt_tensor *g, float limit) {
  dt_device in = dt_device_of(g); /* a gradient: plain, on the inner device */
  int64_t shape[DT_MAX_RANK];
  int rank = dt_rank(g);
  for (int a = 0; a < rank; a++)
    shape[a] = dt_dim(g, a);
  dt_tensor *hi = dt_full(in, limit, rank, shape);
  dt_tensor *lo = dt_full(in, -limit, rank, shape);
  dt_tensor *over = dt_greater(g, hi);
  dt_tensor *g1 = dt_where(over, hi, g);
  dt_tensor *under = dt_greater(lo, g1);
  dt_tensor *g2 = dt_where(under, lo, g1);
  dt_free(hi);
  dt_free(lo);
  dt_free(over);
  dt_free(under);
  dt_free(g1);
  dt_free(g);
  return g2;
}

static dt_tensor *apply(dt_tensor *param, dt_tensor *grad_sum, int count, float lr) {
  dt_device ad = dt_device_of(param);
  dt_tensor *inner = dt_inner(param);
  dt_tensor *step = dt_mul_scalar(grad_sum, lr / (float)count);
  dt_tensor *next = dt_sub(inner, step);
  dt_tensor *leaf = dt_require_grad(dt_from_inner(ad, next));
  dt_free(inner);
  dt_free(step);
  dt_free(next);
  dt_free(param);
  return leaf;
}

int main(int argc, char **argv) {
  dt_device ad = device_from_args(argc, argv);
  LogReg m;
  logreg_init(&m, ad);
  dt_tensor *running = dt_zeros(ad, DT_FLOAT, 0, NULL);
  int steps_done = 0;

  for (int step = 0; step < MAX_STEPS; step++) {
    Accum acc = {NULL, NULL, 0};
    float step_loss = 0.0f;
    for (int k = 0; k < MICRO; k++) {
      dt_tensor *x, *y;
      micro_batch(ad, step, k, &x, &y);
      dt_tensor *z0 = dt_matmul(x, m.w);
      dt_tensor *z = dt_add(z0, m.b);
      dt_tensor *p = dt_sigmoid(z);
      dt_tensor *loss = dt_mse_loss(p, y);
      dt_backward(loss);
      acc.gw = accumulate(acc.gw, dt_grad(m.w));
      acc.gb = accumulate(acc.gb, dt_grad(m.b));
      acc.count++;
      dt_tensor *d = dt_detach(loss);
      dt_tensor *r2 = dt_add(running, d);
      dt_free(running);
      running = r2;
      float l = 0.0f;
      dt_read_floats(loss, &l, 1);
      step_loss += l / MICRO;
      dt_free(d);
      dt_free(x);
      dt_free(y);
      dt_free(z0);
      dt_free(z);
      dt_free(p);
      dt_free(loss);
    }
    acc.gw = clip(acc.gw, 0.5f);
    acc.gb = clip(acc.gb, 0.5f);
    m.w = apply(m.w, acc.gw, acc.count, 1.0f);
    m.b = apply(m.b, acc.gb, acc.count, 1.0f);
    dt_free(acc.gw);
    dt_free(acc.gb);
    steps_done++;
    printf("step %d loss %.5f\n", step, step_loss);
    if (step_loss < 0.05f)
      break;
  }

  float total = 0.0f;
  dt_read_floats(running, &total, 1);
  char name[32];
  dt_device_name(ad, name, sizeof name);
  printf("%s: %d steps, mean micro-batch loss %.5f\n", name, steps_done,
         total / (float)(steps_done * MICRO));
  dt_free(running);
  dt_free(m.w);
  dt_free(m.b);
  return 0;
}
