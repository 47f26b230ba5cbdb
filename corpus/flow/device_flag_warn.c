// provenance: blind round field7
// run-args: --eval-on-host
/* device_flag_warn.c — train a linear model on sim:0, then evaluate. A late addition lets the
 * user evaluate "on the host to save accelerator memory": the evaluation batch is then built on
 * the cpu, but the weights are still the sim:0 ones. The default run evaluates on sim:0. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F 5
#define N 10

typedef struct {
  int eval_on_host;
  int epochs;
  float lr;
  const char *tag;
} flags;

typedef struct {
  dt_device dev;
  dt_tensor *w; /* [F,1] */
  dt_tensor *b; /* [1] */
} linear;

static flags parse(int argc, char **argv) {
  flags f = {0, 30, 0.2f, "run"};
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--eval-on-host") == 0) f.eval_on_host = 1;
    else if (strcmp(argv[i], "--epochs") == 0 && i + 1 < argc) f.epochs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--tag") == 0 && i + 1 < argc) f.tag = argv[++i];
  }
  if (f.epochs < 1) f.epochs = 1;
  return f;
}

static void make_rows(float *x, float *y, int n, int salt) {
  for (int i = 0; i < n; ++i) {
    float acc = 0.3f;
    for (int j = 0; j < F; ++j) {
      float v = (float)(((i + salt) * (j + 1)) % 9) / 9.0f;
      x[i * F + j] = v;
      acc += (j % 2 ? -0.5f : 0.7f) * v;
    }
    y[i] = acc;
  }
}

static void linear_init(linear *m, dt_device dev) {
  const int64_t sw[] = {F, 1}, sb[] = {1};
  m->dev = dev;
  m->w = dt_zeros(dev, DT_FLOAT, 2, sw);
  m->b = dt_zeros(dev, DT_FLOAT, 1, sb);
}

static dt_tensor *linear_apply(const linear *m, const dt_tensor *x) {
  dt_tensor *xw = dt_matmul(x, m->w); // expect-warning: backend-mismatch
  if (!xw) return NULL;
  dt_tensor *y = dt_add(xw, m->b);
  dt_free(xw);
  return y;
}

/* closed-form gradient of the mean squared error, all on the model's device */
static void gd_step(linear *m, const dt_tensor *x, const dt_tensor *y, float lr) {
  dt_tensor *pred = linear_apply(m, x);
  dt_tensor *err = dt_sub(pred, y);
  dt_tensor *xt = dt_transpose(x);
  dt_tensor *gw = dt_matmul(xt, err);
  dt_tensor *gws = dt_mul_scalar(gw, -2.0f * lr / (float)N);
  dt_tensor *gb = dt_sum_dim(err, 0);
  dt_tensor *gbs = dt_mul_scalar(gb, -2.0f * lr / (float)N);
  dt_tensor *nw = dt_add(m->w, gws);
  dt_tensor *nb = dt_add(m->b, gbs);
  dt_free(m->w);
  dt_free(m->b);
  m->w = nw;
  m->b = nb;
  dt_free(pred);
  dt_free(err);
  dt_free(xt);
  dt_free(gw);
  dt_free(gws);
  dt_free(gb);
  dt_free(gbs);
}

static float mse(const dt_tensor *p, const dt_tensor *y) {
  float v = -1.0f;
  dt_tensor *l = dt_mse_loss(p, y);
  if (l) dt_read_floats(l, &v, 1);
  dt_free(l);
  return v;
}

typedef struct {
  float w[F];
  float b;
} weights_file;

/* export for the serving team: always a host copy */
static weights_file export_weights(const linear *m) {
  weights_file out;
  memset(&out, 0, sizeof out);
  dt_tensor *wh = dt_to_device(m->w, dt_cpu());
  dt_tensor *bh = dt_to_device(m->b, dt_cpu());
  dt_read_floats(wh, out.w, F);
  dt_read_floats(bh, &out.b, 1);
  dt_free(wh);
  dt_free(bh);
  return out;
}

/* a host re-implementation used as a cross-check of the device result */
static float host_predict_first(const weights_file *wf, const float *row) {
  float acc = wf->b;
  for (int j = 0; j < F; ++j) acc += wf->w[j] * row[j];
  return acc;
}

static void print_weights(const char *tag, const weights_file *wf) {
  printf("[%s] w =", tag);
  for (int j = 0; j < F; ++j) printf(" %.3f", wf->w[j]);
  printf(" b = %.3f\n", wf->b);
}

int main(int argc, char **argv) {
  flags fl = parse(argc, argv);
  float xh[N * F], yh[N];
  const int64_t sx[] = {N, F}, sy[] = {N, 1};
  linear m;
  linear_init(&m, dt_sim(0));

  make_rows(xh, yh, N, 0);
  dt_tensor *x = dt_from_floats(m.dev, xh, 2, sx);
  dt_tensor *y = dt_from_floats(m.dev, yh, 2, sy);
  for (int e = 0; e < fl.epochs; ++e) gd_step(&m, x, y, fl.lr);
  dt_tensor *p = linear_apply(&m, x);
  printf("[%s] train mse %.5f\n", fl.tag, mse(p, y));
  dt_free(p);

  weights_file wf = export_weights(&m);
  print_weights(fl.tag, &wf);
  printf("[%s] host check of row 0: %.4f\n", fl.tag, host_predict_first(&wf, xh));

  dt_device eval_dev = fl.eval_on_host ? dt_cpu() : m.dev;
  make_rows(xh, yh, N, 3);
  dt_tensor *vx = dt_from_floats(eval_dev, xh, 2, sx);
  dt_tensor *vy = dt_from_floats(eval_dev, yh, 2, sy);
  dt_tensor *vp = linear_apply(&m, vx);
  if (vp) printf("[%s] eval mse %.5f\n", fl.tag, mse(vp, vy));
  else printf("[%s] eval failed: %s\n", fl.tag, dt_last_error());

  dt_free(vp);
  dt_free(vx);
  dt_free(vy);
  dt_free(x);
  dt_free(y);
  dt_free(m.w);
  dt_free(m.b);
  return 0;
}
