/* bench/runtime/bench_mlp.c — a whole training step of a 3-layer perceptron (issue 25): linear,
 * relu, linear, relu, linear, sigmoid, mean squared error, backward, SGD, in FP32, through dt on
 * autodiff<DEVICE>, and (on the cpu) the same step written by hand with cblas_sgemm — transpose
 * flags instead of transposed copies, bias, activation, loss and bias gradients fused into single
 * loops, every buffer allocated once — measured in the same run, alternating rep after rep, and
 * printed as the ratio dt / hand (target on the 2-core development machine: <= 1.15).
 *
 * Every figure is printed with OpenBLAS's core name (openblas_get_corename) and thread count,
 * and the run says when OpenBLAS uses kernels below what the CPU can do (and how to fix it).
 * One "RESULT ..." line per size is for scripts (bench/runtime/mlp_torch.py reads them to put
 * PyTorch's step beside dt's).
 *
 *   bench_mlp [--quick] [--device cpu|cuda:N] [--sizes B:I-H-O,...] [--no-hand] [--seconds S]
 *             [--steps N]   (N steps per rep instead of filling S seconds: for profilers)
 *
 * Sizes: B the batch, I inputs, H the width of both hidden layers, O outputs. The default is the
 * issue's cpu sizes, 256:2-32-1,1024:256-1024-16. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/cpu_blas.h"
#include "backends/cpu/cpu_parallel.h"
#include "dt/dt.h"

int openblas_get_num_threads(void);

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the whole process (every thread), the steadier figure on a shared machine. */
static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == NULL) {
    fprintf(stderr, "bench_mlp: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

typedef struct sizes {
  int batch, in, hidden, out;
} sizes;

/* ---- the problem: data and initial weights on the host, shared by both implementations ---- */

enum { N_PARAMS = 6 }; /* w1 b1 w2 b2 w3 b3 */

typedef struct problem {
  sizes z;
  float *x, *y;
  float *param[N_PARAMS];
  int64_t rows[N_PARAMS], cols[N_PARAMS]; /* cols 0: a bias (rank 1) */
} problem;

static float *host_randn(uint64_t seed, size_t n, float scale) {
  float *v = xmalloc(n * sizeof *v);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < n; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const double u1 = ((double)(s >> 11) + 0.5) / 9007199254740992.0;
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const double u2 = (double)(s >> 11) / 9007199254740992.0;
    v[i] = scale * (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
  }
  return v;
}

static size_t param_numel(const problem *p, int i) {
  return (size_t)p->rows[i] * (size_t)(p->cols[i] ? p->cols[i] : 1);
}

static void problem_init(problem *p, sizes z) {
  p->z = z;
  p->x = host_randn(1, (size_t)z.batch * (size_t)z.in, 1.0f);
  p->y = host_randn(2, (size_t)z.batch * (size_t)z.out, 0.5f);
  for (size_t i = 0; i < (size_t)z.batch * (size_t)z.out; i++) p->y[i] = p->y[i] > 0 ? 0.9f : 0.1f;
  const int64_t fan_in[3] = {z.in, z.hidden, z.hidden}, fan_out[3] = {z.hidden, z.hidden, z.out};
  for (int l = 0; l < 3; l++) {
    p->rows[2 * l] = fan_in[l];
    p->cols[2 * l] = fan_out[l];
    p->rows[2 * l + 1] = fan_out[l];
    p->cols[2 * l + 1] = 0;
    p->param[2 * l] = host_randn(10 + (uint64_t)l, param_numel(p, 2 * l), sqrtf(2.0f / (float)fan_in[l]));
    p->param[2 * l + 1] = host_randn(20 + (uint64_t)l, param_numel(p, 2 * l + 1), 0.1f);
  }
}

static void problem_free(problem *p) {
  free(p->x);
  free(p->y);
  for (int i = 0; i < N_PARAMS; i++) free(p->param[i]);
}

/* ---- the step written by hand with cblas on buffers allocated once ---- */

typedef struct hand {
  sizes z;
  const float *x, *y;
  float *w[3], *b[3];          /* the parameters (copies, updated in place) */
  float *h1, *h2, *p;          /* activations */
  float *d3, *d2, *d1;         /* gradients at the pre-activations */
  float *dw[3], *db[3];
} hand;

static float *dup(const float *v, size_t n) {
  float *r = xmalloc(n * sizeof *r);
  memcpy(r, v, n * sizeof *r);
  return r;
}

static void hand_init(hand *s, const problem *p) {
  const sizes z = p->z;
  const size_t bh = (size_t)z.batch * (size_t)z.hidden, bo = (size_t)z.batch * (size_t)z.out;
  s->z = z;
  s->x = p->x;
  s->y = p->y;
  for (int l = 0; l < 3; l++) {
    s->w[l] = dup(p->param[2 * l], param_numel(p, 2 * l));
    s->b[l] = dup(p->param[2 * l + 1], param_numel(p, 2 * l + 1));
    s->dw[l] = xmalloc(param_numel(p, 2 * l) * sizeof(float));
    s->db[l] = xmalloc(param_numel(p, 2 * l + 1) * sizeof(float));
  }
  s->h1 = xmalloc(bh * sizeof(float));
  s->h2 = xmalloc(bh * sizeof(float));
  s->d2 = xmalloc(bh * sizeof(float));
  s->d1 = xmalloc(bh * sizeof(float));
  s->p = xmalloc(bo * sizeof(float));
  s->d3 = xmalloc(bo * sizeof(float));
}

static void hand_free(hand *s) {
  for (int l = 0; l < 3; l++) {
    free(s->w[l]);
    free(s->b[l]);
    free(s->dw[l]);
    free(s->db[l]);
  }
  free(s->h1);
  free(s->h2);
  free(s->d2);
  free(s->d1);
  free(s->p);
  free(s->d3);
}

/* out = relu(out + bias) over [rows, cols], in place */
static void bias_relu(float *restrict out, const float *restrict bias, int rows, int cols) {
  for (int i = 0; i < rows; i++) {
    float *restrict r = out + (size_t)i * (size_t)cols;
    for (int j = 0; j < cols; j++) {
      const float v = r[j] + bias[j];
      r[j] = v > 0.0f ? v : 0.0f;
    }
  }
}

/* d = d where h > 0 else 0 (in place), and db = the column sums of the result */
static void relu_back_colsum(float *restrict d, const float *restrict h, float *restrict db,
                             int rows, int cols) {
  for (int j = 0; j < cols; j++) db[j] = 0.0f;
  for (int i = 0; i < rows; i++) {
    float *restrict r = d + (size_t)i * (size_t)cols;
    const float *restrict hr = h + (size_t)i * (size_t)cols;
    for (int j = 0; j < cols; j++) {
      const float v = hr[j] > 0.0f ? r[j] : 0.0f;
      r[j] = v;
      db[j] += v;
    }
  }
}

static float hand_step(hand *s, float lr) {
  const int NB = s->z.batch, NI = s->z.in, NH = s->z.hidden, NO = s->z.out;
  /* forward */
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NB, NH, NI, 1.0f, s->x, NI, s->w[0], NH, 0.0f,
              s->h1, NH);
  bias_relu(s->h1, s->b[0], NB, NH);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NB, NH, NH, 1.0f, s->h1, NH, s->w[1], NH, 0.0f,
              s->h2, NH);
  bias_relu(s->h2, s->b[1], NB, NH);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NB, NO, NH, 1.0f, s->h2, NH, s->w[2], NO, 0.0f,
              s->p, NO);
  /* sigmoid, loss, d loss / d pre-activation and the last bias gradient in one loop */
  double loss = 0.0;
  const float scale = 2.0f / (float)((double)NB * (double)NO);
  for (int j = 0; j < NO; j++) s->db[2][j] = 0.0f;
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NO; j++) {
      const size_t k = (size_t)i * (size_t)NO + (size_t)j;
      const float q = 1.0f / (1.0f + expf(-(s->p[k] + s->b[2][j])));
      const float e = q - s->y[k];
      loss += (double)e * (double)e;
      const float d = scale * e * q * (1.0f - q);
      s->p[k] = q;
      s->d3[k] = d;
      s->db[2][j] += d;
    }
  /* backward: transposes through the flags, never copied */
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, NH, NO, NB, 1.0f, s->h2, NH, s->d3, NO, 0.0f,
              s->dw[2], NO);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, NB, NH, NO, 1.0f, s->d3, NO, s->w[2], NO, 0.0f,
              s->d2, NH);
  relu_back_colsum(s->d2, s->h2, s->db[1], NB, NH);
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, NH, NH, NB, 1.0f, s->h1, NH, s->d2, NH, 0.0f,
              s->dw[1], NH);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, NB, NH, NH, 1.0f, s->d2, NH, s->w[1], NH, 0.0f,
              s->d1, NH);
  relu_back_colsum(s->d1, s->h1, s->db[0], NB, NH);
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, NI, NH, NB, 1.0f, s->x, NI, s->d1, NH, 0.0f,
              s->dw[0], NH);
  /* SGD, in place */
  const int wn[3] = {NI * NH, NH * NH, NH * NO}, bn[3] = {NH, NH, NO};
  for (int l = 0; l < 3; l++) {
    cblas_saxpy(wn[l], -lr, s->dw[l], 1, s->w[l], 1);
    cblas_saxpy(bn[l], -lr, s->db[l], 1, s->b[l], 1);
  }
  return (float)(loss / ((double)NB * (double)NO));
}

/* ---- the same step through dt, as a user writes it ---- */

typedef struct model {
  dt_device ad;
  dt_tensor *x, *y;
  dt_tensor *param[N_PARAMS];
} model;

static void model_init(model *m, const problem *p, dt_device inner) {
  const sizes z = p->z;
  m->ad = dt_autodiff(inner);
  m->x = dt_from_floats(m->ad, p->x, 2, (const int64_t[]){z.batch, z.in});
  m->y = dt_from_floats(m->ad, p->y, 2, (const int64_t[]){z.batch, z.out});
  for (int i = 0; i < N_PARAMS; i++) {
    const int64_t shape[2] = {p->rows[i], p->cols[i]};
    m->param[i] = dt_require_grad(dt_from_floats(m->ad, p->param[i], p->cols[i] ? 2 : 1, shape));
  }
}

static void model_free(model *m) {
  dt_free(m->x);
  dt_free(m->y);
  for (int i = 0; i < N_PARAMS; i++) dt_free(m->param[i]);
}

/* w <- w - lr * grad(w), a new leaf */
static void sgd(dt_tensor **w, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*w);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *val = dt_inner(*w);
  dt_tensor *next = dt_sub(val, step);
  dt_free(*w);
  *w = dt_require_grad(dt_from_inner(ad, next));
  dt_free(g);
  dt_free(step);
  dt_free(val);
  dt_free(next);
}

static dt_tensor *linear(const dt_tensor *x, const dt_tensor *w, const dt_tensor *b) {
  dt_tensor *xw = dt_matmul(x, w);
  dt_tensor *z = dt_add(xw, b);
  dt_free(xw);
  return z;
}

static float model_step(model *m, float lr) {
  dt_tensor *z1 = linear(m->x, m->param[0], m->param[1]);
  dt_tensor *h1 = dt_relu(z1);
  dt_tensor *z2 = linear(h1, m->param[2], m->param[3]);
  dt_tensor *h2 = dt_relu(z2);
  dt_tensor *z3 = linear(h2, m->param[4], m->param[5]);
  dt_tensor *p = dt_sigmoid(z3);
  dt_tensor *loss = dt_mse_loss(p, m->y);
  dt_tensor *all[] = {z1, h1, z2, h2, z3, p};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  float v = NAN;
  dt_backward(loss);
  dt_read_floats(loss, &v, 1); /* waits for the device */
  dt_free(loss);
  for (int i = 0; i < N_PARAMS; i++) sgd(&m->param[i], m->ad, lr);
  return v;
}

/* ---- timing ---- */

typedef struct options {
  int quick, hand;
  double seconds; /* per implementation and size, roughly */
  int steps;      /* steps per rep when > 0 */
  dt_device device;
  const char *device_name;
} options;

/* Mean wall seconds per step of `steps` steps (m NULL: by hand); *cpu gets the CPU seconds. */
static double time_steps(hand *h, model *m, int steps, double *cpu) {
  const double t0 = now_s(), c0 = cpu_s();
  for (int s = 0; s < steps; s++) {
    if (m != NULL)
      model_step(m, 1e-3f);
    else
      hand_step(h, 1e-3f);
  }
  if (cpu != NULL) *cpu = (cpu_s() - c0) / steps;
  return (now_s() - t0) / steps;
}

static void run_size(sizes z, const options *o, const char *blas_core, int blas_threads) {
  problem p;
  problem_init(&p, z);
  model m;
  model_init(&m, &p, o->device);
  hand h;
  memset(&h, 0, sizeof h);
  if (o->hand) hand_init(&h, &p);
  /* the same work: losses agree step by step (both start from the same weights) */
  float worst = 0.0f, first = 0.0f;
  for (int s = 0; s < 3; s++) {
    const float b = model_step(&m, 1e-3f);
    if (s == 0) first = b;
    if (o->hand) {
      const float a = hand_step(&h, 1e-3f);
      const float rel = fabsf(a - b) / (fabsf(a) + 1e-12f);
      if (rel > worst) worst = rel;
    }
  }
  /* steps per rep from one timed step of dt, reps to fill the time asked for */
  const double one = time_steps(&h, &m, 1, NULL);
  int reps = o->quick ? 1 : 7;
  int steps = (int)(o->seconds / reps / (one > 1e-7 ? one : 1e-7));
  if (steps < 1) steps = 1;
  if (steps > 2000) steps = 2000;
  if (o->steps > 0) steps = o->steps;
  if (o->quick) steps = 2;
  double t_dt[16], t_hand[16], ratio[16], c_dt[16], c_hand[16], cratio[16];
  for (int r = 0; r < reps; r++) {
    if (o->hand && r % 2 == 1) t_hand[r] = time_steps(&h, NULL, steps, &c_hand[r]);
    t_dt[r] = time_steps(&h, &m, steps, &c_dt[r]);
    if (o->hand && r % 2 == 0) t_hand[r] = time_steps(&h, NULL, steps, &c_hand[r]);
    if (o->hand) ratio[r] = t_dt[r] / t_hand[r];
    if (o->hand) cratio[r] = c_dt[r] / c_hand[r];
  }
  qsort(t_dt, (size_t)reps, sizeof t_dt[0], cmp_double);
  const double dt_ms = t_dt[reps / 2] * 1e3;
  printf("MLP step batch %d, %d-%d-%d (3 layers), %s: dt %.4f ms", z.batch, z.in, z.hidden, z.out,
         o->device_name, dt_ms);
  double hand_ms = 0.0, med_ratio = 0.0, med_cratio = 0.0;
  if (o->hand) {
    qsort(t_hand, (size_t)reps, sizeof t_hand[0], cmp_double);
    qsort(ratio, (size_t)reps, sizeof ratio[0], cmp_double);
    qsort(cratio, (size_t)reps, sizeof cratio[0], cmp_double);
    hand_ms = t_hand[reps / 2] * 1e3;
    med_ratio = ratio[reps / 2];
    med_cratio = cratio[reps / 2];
    printf(", by hand %.4f ms, dt/hand %.3f (target <= 1.15; in CPU time %.3f); losses agree to "
           "%.1e", hand_ms, med_ratio, med_cratio, (double)worst);
  }
  printf("  [OpenBLAS core %s, %d threads; dt loops %d threads; %d reps x %d steps, medians]\n",
         blas_core, blas_threads, cpu_thread_count(), reps, steps);
  printf("RESULT device=%s batch=%d in=%d hidden=%d out=%d dt_ms=%.6f hand_ms=%.6f ratio=%.4f "
         "cpu_ratio=%.4f loss0=%.6f core=%s threads=%d\n",
         o->device_name, z.batch, z.in, z.hidden, z.out, dt_ms, hand_ms, med_ratio, med_cratio,
         (double)first, blas_core, blas_threads);
  fflush(stdout);
  if (o->hand) hand_free(&h);
  model_free(&m);
  problem_free(&p);
}

/* "B:I-H-O" */
static int parse_size(const char *s, sizes *z) {
  return sscanf(s, "%d:%d-%d-%d", &z->batch, &z->in, &z->hidden, &z->out) == 4 && z->batch > 0 &&
         z->in > 0 && z->hidden > 0 && z->out > 0;
}

static int usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [--quick] [--device cpu|cuda:N|sim:N] [--sizes B:I-H-O,...] [--no-hand] "
          "[--seconds S] [--steps N]\n",
          argv0);
  return 2;
}

int main(int argc, char **argv) {
  options o = {.quick = 0, .hand = 1, .seconds = 3.0, .device = dt_cpu(), .device_name = "cpu"};
  const char *size_list = "256:2-32-1,1024:256-1024-16";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) {
      o.quick = 1;
    } else if (strcmp(argv[i], "--no-hand") == 0) {
      o.hand = 0;
    } else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      o.device_name = argv[++i];
      int ord = 0;
      if (strcmp(o.device_name, "cpu") == 0)
        o.device = dt_cpu();
      else if (sscanf(o.device_name, "cuda:%d", &ord) == 1)
        o.device = dt_cuda(ord);
      else if (sscanf(o.device_name, "sim:%d", &ord) == 1)
        o.device = dt_sim(ord);
      else
        return usage(argv[0]);
    } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
      size_list = argv[++i];
    } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      o.steps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      o.seconds = atof(argv[++i]);
    } else {
      return usage(argv[0]);
    }
  }
  if (o.device.backend != DT_BACKEND_CPU) o.hand = 0; /* the hand-written step is the cpu's */
  if (!dt_backend_available(o.device.backend)) {
    printf("bench_mlp: %s is not available here; nothing measured\n", o.device_name);
    return 0;
  }
  if (o.quick) size_list = "64:2-32-1,128:64-128-8";
  dt_set_error_mode(DT_ERRORS_ABORT);
  char advice[512];
  const char *core = dt__cpu_blas_core();
  const int threads = openblas_get_num_threads();
  if (dt__cpu_blas_check(advice, sizeof advice))
    printf("WARNING: %s\n", advice);
  else
    printf("OpenBLAS: %s\n", advice);
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", size_list);
  for (char *tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ",")) {
    sizes z;
    if (!parse_size(tok, &z)) return usage(argv[0]);
    run_size(z, &o, core, threads);
  }
  return 0;
}
