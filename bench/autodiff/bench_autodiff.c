/* bench/autodiff/bench_autodiff.c — what autodiff costs on the cpu backend, measured in one run:
 *  1. a training step of a two-layer perceptron (matmul, bias, relu, matmul, bias, mse loss,
 *     backward, SGD update) on autodiff<cpu>, against the same step written by hand with cblas
 *     on preallocated buffers (target: ratio <= 1.3);
 *  2. the tag checks' share of a step: the precheck's cost per call (dt__precheck on the
 *     operands of a real call, timed in a loop) times the number of checked calls per step,
 *     over the step's time (target: < 2%).
 * Both implementations start from the same weights; their losses are compared to show they do
 * the same work.
 *
 *   bench_autodiff [batch in hidden out]   (default 64 512 512 16) */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct sizes {
  int batch, in, hidden, out;
} sizes;

static float *host_randn(uint64_t seed, size_t n, float scale) {
  float *v = malloc(n * sizeof *v);
  if (v == NULL) abort();
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < n; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double u1 = ((double)(s >> 11) + 0.5) / 9007199254740992.0;
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double u2 = (double)(s >> 11) / 9007199254740992.0;
    v[i] = scale * (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
  }
  return v;
}

/* The data and initial weights, on the host, shared by both implementations. */
typedef struct problem {
  sizes z;
  float *x, *y, *w1, *b1, *w2, *b2;
} problem;

static void problem_init(problem *p, sizes z) {
  p->z = z;
  p->x = host_randn(1, (size_t)z.batch * z.in, 1.0f);
  p->y = host_randn(2, (size_t)z.batch * z.out, 1.0f);
  p->w1 = host_randn(3, (size_t)z.in * z.hidden, 1.0f / sqrtf((float)z.in));
  p->b1 = host_randn(4, (size_t)z.hidden, 0.1f);
  p->w2 = host_randn(5, (size_t)z.hidden * z.out, 1.0f / sqrtf((float)z.hidden));
  p->b2 = host_randn(6, (size_t)z.out, 0.1f);
}

static void problem_free(problem *p) {
  free(p->x);
  free(p->y);
  free(p->w1);
  free(p->b1);
  free(p->w2);
  free(p->b2);
}

/* ---- the step written by hand with cblas, on preallocated buffers ---- */

typedef struct hand {
  sizes z;
  float *x, *y, *w1, *b1, *w2, *b2;
  float *h, *p, *dp, *dw2, *db2, *dh, *dw1, *db1;
} hand;

static float *dup(const float *v, size_t n) {
  float *r = malloc(n * sizeof *r);
  if (r == NULL) abort();
  memcpy(r, v, n * sizeof *r);
  return r;
}

static void hand_init(hand *s, const problem *p) {
  sizes z = p->z;
  s->z = z;
  size_t bi = (size_t)z.batch * z.in, bh = (size_t)z.batch * z.hidden, bo = (size_t)z.batch * z.out;
  s->x = dup(p->x, bi);
  s->y = dup(p->y, bo);
  s->w1 = dup(p->w1, (size_t)z.in * z.hidden);
  s->b1 = dup(p->b1, (size_t)z.hidden);
  s->w2 = dup(p->w2, (size_t)z.hidden * z.out);
  s->b2 = dup(p->b2, (size_t)z.out);
  s->h = malloc(bh * sizeof(float));
  s->p = malloc(bo * sizeof(float));
  s->dp = malloc(bo * sizeof(float));
  s->dw2 = malloc((size_t)z.hidden * z.out * sizeof(float));
  s->db2 = malloc((size_t)z.out * sizeof(float));
  s->dh = malloc(bh * sizeof(float));
  s->dw1 = malloc((size_t)z.in * z.hidden * sizeof(float));
  s->db1 = malloc((size_t)z.hidden * sizeof(float));
  if (!s->h || !s->p || !s->dp || !s->dw2 || !s->db2 || !s->dh || !s->dw1 || !s->db1) abort();
}

static void hand_free(hand *s) {
  float *all[] = {s->x, s->y, s->w1, s->b1, s->w2, s->b2, s->h, s->p,
                  s->dp, s->dw2, s->db2, s->dh, s->dw1, s->db1};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
}

/* Column sums of an [rows, cols] matrix. */
static void col_sums(const float *m, int rows, int cols, float *out) {
  for (int j = 0; j < cols; j++) out[j] = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) out[j] += m[(size_t)i * cols + j];
}

/* Forward and backward: the loss, and the gradients in dw1, db1, dw2, db2. */
static float hand_forward_backward(hand *s) {
  const int NB = s->z.batch, NI = s->z.in, NH = s->z.hidden, NO = s->z.out;
  /* h = relu(x w1 + b1) */
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NB, NH, NI, 1.0f, s->x, NI, s->w1, NH, 0.0f,
              s->h, NH);
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NH; j++) {
      float v = s->h[(size_t)i * NH + j] + s->b1[j];
      s->h[(size_t)i * NH + j] = v > 0 ? v : 0;
    }
  /* p = h w2 + b2; loss = mean((p - y)^2) */
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NB, NO, NH, 1.0f, s->h, NH, s->w2, NO, 0.0f,
              s->p, NO);
  double loss = 0;
  const float scale = 2.0f / (float)(NB * NO);
  for (int i = 0; i < NB * NO; i++) {
    float d = s->p[i] + s->b2[i % NO] - s->y[i];
    loss += (double)d * d;
    s->dp[i] = scale * d;
  }
  /* backward */
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, NH, NO, NB, 1.0f, s->h, NH, s->dp, NO, 0.0f,
              s->dw2, NO);
  col_sums(s->dp, NB, NO, s->db2);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, NB, NH, NO, 1.0f, s->dp, NO, s->w2, NO, 0.0f,
              s->dh, NH);
  for (int i = 0; i < NB * NH; i++)
    if (s->h[i] <= 0) s->dh[i] = 0;
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, NI, NH, NB, 1.0f, s->x, NI, s->dh, NH, 0.0f,
              s->dw1, NH);
  col_sums(s->dh, NB, NH, s->db1);
  return (float)(loss / (NB * NO));
}

static void hand_update(hand *s, float lr) {
  const int NI = s->z.in, NH = s->z.hidden, NO = s->z.out;
  cblas_saxpy(NI * NH, -lr, s->dw1, 1, s->w1, 1);
  cblas_saxpy(NH, -lr, s->db1, 1, s->b1, 1);
  cblas_saxpy(NH * NO, -lr, s->dw2, 1, s->w2, 1);
  cblas_saxpy(NO, -lr, s->db2, 1, s->b2, 1);
}

/* ---- the same step through dt on autodiff<cpu> ---- */

typedef struct model {
  dt_device ad;
  dt_tensor *x, *y, *w1, *b1, *w2, *b2;
} model;

static dt_tensor *leaf(dt_device ad, const float *v, int rank, const int64_t *shape) {
  return dt_require_grad(dt_from_floats(ad, v, rank, shape));
}

static void model_init(model *m, const problem *p) {
  sizes z = p->z;
  m->ad = dt_autodiff(dt_cpu());
  m->x = dt_from_floats(m->ad, p->x, 2, (const int64_t[]){z.batch, z.in});
  m->y = dt_from_floats(m->ad, p->y, 2, (const int64_t[]){z.batch, z.out});
  m->w1 = leaf(m->ad, p->w1, 2, (const int64_t[]){z.in, z.hidden});
  m->b1 = leaf(m->ad, p->b1, 1, (const int64_t[]){z.hidden});
  m->w2 = leaf(m->ad, p->w2, 2, (const int64_t[]){z.hidden, z.out});
  m->b2 = leaf(m->ad, p->b2, 1, (const int64_t[]){z.out});
}

static void model_free(model *m) {
  dt_tensor *all[] = {m->x, m->y, m->w1, m->b1, m->w2, m->b2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
}

/* Checked public calls per parameter update and per step (for the tag-check share). */
enum { CHECKS_PER_UPDATE = 6, CHECKS_PER_STEP = 6 + 2 + 4 * CHECKS_PER_UPDATE };

static void sgd(dt_tensor **w, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*w);                /* 1 */
  dt_tensor *step = dt_mul_scalar(g, lr);    /* 2 */
  dt_tensor *val = dt_inner(*w);             /* 3 */
  dt_tensor *next = dt_sub(val, step);       /* 4 */
  dt_free(*w);
  *w = dt_require_grad(dt_from_inner(ad, next)); /* 5, 6 */
  dt_free(g);
  dt_free(step);
  dt_free(val);
  dt_free(next);
}

/* Forward and backward: the loss, and the gradients kept by the leaves. */
static float model_forward_backward(model *m) {
  dt_tensor *xw = dt_matmul(m->x, m->w1); /* 6 checked ops forward */
  dt_tensor *z = dt_add(xw, m->b1);
  dt_tensor *h = dt_relu(z);
  dt_tensor *hw = dt_matmul(h, m->w2);
  dt_tensor *p = dt_add(hw, m->b2);
  dt_tensor *loss = dt_mse_loss(p, m->y);
  dt_free(xw);
  dt_free(z);
  dt_free(h);
  dt_free(hw);
  dt_free(p);
  float v = 0;
  dt_backward(loss);            /* 7 */
  dt_read_floats(loss, &v, 1);  /* 8 */
  dt_free(loss);
  return v;
}

static void model_update(model *m, float lr) {
  sgd(&m->w1, m->ad, lr);
  sgd(&m->b1, m->ad, lr);
  sgd(&m->w2, m->ad, lr);
  sgd(&m->b2, m->ad, lr);
}

/* ---- timing ---- */

typedef struct phase_times {
  double fb;     /* forward and backward */
  double update; /* the SGD update */
} phase_times;

/* Mean per-step times of `steps` steps of one implementation (m NULL: by hand). */
static phase_times run_steps(hand *h, model *m, int steps) {
  double t_fb = 0, t_up = 0;
  const float lr = 1e-3f;
  for (int s = 0; s < steps; s++) {
    double t0 = now_s();
    if (m != NULL)
      model_forward_backward(m);
    else
      hand_forward_backward(h);
    double t1 = now_s();
    if (m != NULL)
      model_update(m, lr);
    else
      hand_update(h, lr);
    double t2 = now_s();
    t_fb += t1 - t0;
    t_up += t2 - t1;
  }
  return (phase_times){t_fb / steps, t_up / steps};
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof v[0], cmp_double);
  return v[n / 2];
}

/* The two implementations in alternation, rep after rep (so a busy machine slows both alike);
   medians of the per-rep times and of the per-rep ratios. */
typedef struct comparison {
  phase_times hand, dt;
  double ratio_fb, ratio_update, ratio_step;
} comparison;

static comparison compare(hand *h, model *m, int steps, int reps) {
  double hf[64], hu[64], df[64], du[64], rf[64], ru[64], rs[64];
  for (int k = 0; k < reps; k++) {
    phase_times a = run_steps(h, NULL, steps);
    phase_times b = run_steps(NULL, m, steps);
    hf[k] = a.fb;
    hu[k] = a.update;
    df[k] = b.fb;
    du[k] = b.update;
    rf[k] = b.fb / a.fb;
    ru[k] = b.update / a.update;
    rs[k] = (b.fb + b.update) / (a.fb + a.update);
  }
  comparison c;
  c.ratio_fb = median(rf, reps);
  c.ratio_update = median(ru, reps);
  c.ratio_step = median(rs, reps);
  c.hand = (phase_times){median(hf, reps), median(hu, reps)};
  c.dt = (phase_times){median(df, reps), median(du, reps)};
  return c;
}

/* ns per dt__precheck of two autodiff float operands (what dt_add on autodiff<cpu> checks). */
static double precheck_ns(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *a = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){4, 4});
  dt_tensor *b = dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){4});
  const dt_tensor *ts[2] = {a, b}, *objs[2];
  dt_site site = {__FILE__, __LINE__, "dt_add"};
  const long n = 20000000;
  volatile int sink = 0;
  double best = 1e9;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
      const dt_tensor *volatile *vts = (const dt_tensor *volatile *)ts; /* defeat hoisting */
      sink += (int)dt__precheck(&site, 2, (const dt_tensor *const *)vts, objs, DT_KINDS_NUMERIC);
    }
    double ns = (now_s() - t0) * 1e9 / (double)n;
    if (ns < best) best = ns;
  }
  dt_free(a);
  dt_free(b);
  return sink == 0 ? best : -1;
}

static void run_size(sizes z, int steps, int reps) {
  problem p;
  problem_init(&p, z);
  hand h;
  model m;
  hand_init(&h, &p);
  model_init(&m, &p);
  /* the same work: losses agree step by step */
  float worst = 0;
  for (int s = 0; s < 5; s++) {
    float a = hand_forward_backward(&h), b = model_forward_backward(&m);
    hand_update(&h, 1e-3f);
    model_update(&m, 1e-3f);
    float rel = fabsf(a - b) / (fabsf(a) + 1e-12f);
    if (rel > worst) worst = rel;
  }
  comparison c = compare(&h, &m, steps, reps);
  double step_dt = c.dt.fb + c.dt.update;
  double ns = precheck_ns();
  double share = ns * CHECKS_PER_STEP / (step_dt * 1e9);
  printf("MLP %d x %d -> %d -> %d (batch, in, hidden, out), %d alternating reps of %d steps, "
         "medians\n", z.batch, z.in, z.hidden, z.out, reps, steps);
  printf("  losses of the two implementations agree to %.1e (relative)\n", (double)worst);
  printf("                           %12s %13s %8s\n", "hand (cblas)", "autodiff<cpu>", "ratio");
  printf("  forward + backward       %9.1f us %10.1f us %8.3f   (target <= 1.30)\n",
         c.hand.fb * 1e6, c.dt.fb * 1e6, c.ratio_fb);
  printf("  SGD update               %9.1f us %10.1f us %8.3f   (in-place saxpy vs dt ops)\n",
         c.hand.update * 1e6, c.dt.update * 1e6, c.ratio_update);
  printf("  whole training step      %9.1f us %10.1f us %8.3f\n",
         (c.hand.fb + c.hand.update) * 1e6, step_dt * 1e6, c.ratio_step);
  printf("  precheck                 %9.1f ns per call, %d checked calls per step\n", ns,
         (int)CHECKS_PER_STEP);
  printf("  tag checking share       %9.4f %% of a step (target < 2%%)\n", 100.0 * share);
  hand_free(&h);
  model_free(&m);
  problem_free(&p);
}

int main(int argc, char **argv) {
  sizes z = {64, 512, 512, 16};
  if (argc == 5) {
    z.batch = atoi(argv[1]);
    z.in = atoi(argv[2]);
    z.hidden = atoi(argv[3]);
    z.out = atoi(argv[4]);
  }
  if (z.batch <= 0 || z.in <= 0 || z.hidden <= 0 || z.out <= 0) {
    fprintf(stderr, "usage: %s [batch in hidden out]\n", argv[0]);
    return 2;
  }
  run_size(z, 10, 15);
  if (argc != 5) {
    /* a small network too, where per-call costs weigh most */
    sizes small = {16, 32, 64, 4};
    run_size(small, 300, 15);
  }
  return 0;
}
