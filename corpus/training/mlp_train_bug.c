// provenance: blind round field7
/* mlp_train_bug.c — a two-layer regression MLP trained on autodiff<sim:0>, then exported to
 * the host for serving. The export helper was refactored from "copy everything" to "copy what
 * changed" and forgot to bring the output bias back to the host; the metrics step divides an
 * int histogram by a float total. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_SAMPLES 8
#define N_IN 4
#define N_HID 16
#define N_OUT 1

typedef struct {
  dt_device dev;
  dt_tensor *w1, *b1, *w2, *b2;
} mlp;

typedef struct {
  dt_tensor *w1, *b1, *w2, *b2; /* plain tensors for inference */
} mlp_export;

typedef struct {
  float lr;
  int epochs;
  uint64_t seed;
} train_cfg;

static void replace(dt_tensor **slot, dt_tensor *t) {
  dt_free(*slot);
  *slot = t;
}

static void mlp_init(mlp *m, dt_device dev, uint64_t seed) {
  const int64_t s1[] = {N_IN, N_HID}, s2[] = {N_HID}, s3[] = {N_HID, N_OUT}, s4[] = {N_OUT};
  m->dev = dev;
  m->w1 = dt_require_grad(dt_mul_scalar(dt_randn(dev, seed, 2, s1), 0.3f));
  m->b1 = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, s2));
  m->w2 = dt_require_grad(dt_mul_scalar(dt_randn(dev, seed + 1, 2, s3), 0.3f));
  m->b2 = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, s4));
}

/* moves every parameter onto dev (autodiff to autodiff keeps the graph) */
static void mlp_to(mlp *m, dt_device dev) {
  replace(&m->w1, dt_require_grad(dt_to_device(m->w1, dev)));
  replace(&m->b1, dt_require_grad(dt_to_device(m->b1, dev)));
  replace(&m->w2, dt_require_grad(dt_to_device(m->w2, dev)));
  replace(&m->b2, dt_require_grad(dt_to_device(m->b2, dev)));
  m->dev = dev;
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *z1 = dt_matmul(x, m->w1);
  dt_tensor *a1 = dt_add(z1, m->b1);
  dt_tensor *h = dt_relu(a1);
  dt_tensor *z2 = dt_matmul(h, m->w2);
  dt_tensor *out = dt_add(z2, m->b2);
  dt_free(z1);
  dt_free(a1);
  dt_free(h);
  dt_free(z2);
  return out;
}

static void sgd_update(dt_tensor **param, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*param);
  if (!g) return;
  dt_tensor *inner = dt_inner(*param);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *next = dt_sub(inner, step);
  replace(param, dt_require_grad(dt_from_inner(ad, next)));
  dt_free(g);
  dt_free(inner);
  dt_free(step);
}

static void make_dataset(float *x, float *y) {
  for (int i = 0; i < N_SAMPLES; ++i) {
    float acc = 0.0f;
    for (int j = 0; j < N_IN; ++j) {
      x[i * N_IN + j] = (float)((i * 7 + j * 3) % 11) / 11.0f - 0.5f;
      acc += (float)(j + 1) * x[i * N_IN + j];
    }
    y[i] = acc * 0.25f;
  }
}

static float train(mlp *m, const train_cfg *cfg, const float *xh, const float *yh) {
  const int64_t sx[] = {N_SAMPLES, N_IN}, sy[] = {N_SAMPLES, N_OUT};
  dt_device inner = dt_inner_device(m->dev);
  dt_tensor *x_host = dt_from_floats(dt_cpu(), xh, 2, sx);
  dt_tensor *y_host = dt_from_floats(dt_cpu(), yh, 2, sy);
  dt_tensor *x_dev = dt_to_device(x_host, inner);
  dt_tensor *y_dev = dt_to_device(y_host, inner);
  dt_tensor *x = dt_from_inner(m->dev, x_dev);
  dt_tensor *y = dt_from_inner(m->dev, y_dev);
  float last = 0.0f;
  for (int e = 0; e < cfg->epochs; ++e) {
    dt_tensor *pred = mlp_forward(m, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    sgd_update(&m->w1, m->dev, cfg->lr);
    sgd_update(&m->b1, m->dev, cfg->lr);
    sgd_update(&m->w2, m->dev, cfg->lr);
    sgd_update(&m->b2, m->dev, cfg->lr);
    dt_read_floats(loss, &last, 1);
    dt_free(pred);
    dt_free(loss);
  }
  dt_free(x_host);
  dt_free(y_host);
  dt_free(x_dev);
  dt_free(y_dev);
  dt_free(x);
  dt_free(y);
  return last;
}

/* plain host copies for the serving path */
static void mlp_export_to(const mlp *m, mlp_export *e, dt_device host) {
  dt_tensor *t;
  t = dt_inner(m->w1);
  e->w1 = dt_to_device(t, host);
  dt_free(t);
  t = dt_inner(m->b1);
  e->b1 = dt_to_device(t, host);
  dt_free(t);
  t = dt_inner(m->w2);
  e->w2 = dt_to_device(t, host);
  dt_free(t);
  e->b2 = dt_inner(m->b2); /* the output bias "is tiny, keep it" */
}

static dt_tensor *serve_forward(const mlp_export *e, const dt_tensor *x) {
  dt_tensor *z1 = dt_matmul(x, e->w1);
  dt_tensor *a1 = dt_add(z1, e->b1);
  dt_tensor *h = dt_relu(a1);
  dt_tensor *z2 = dt_matmul(h, e->w2);
  dt_tensor *out = dt_add(z2, e->b2); // expect-error: backend-mismatch
  dt_free(z1);
  dt_free(a1);
  dt_free(h);
  dt_free(z2);
  return out;
}

static void report_histogram(void) {
  const int64_t buckets[] = {0, 1, 1, 2, 0, 1, 2, 2};
  const int64_t sb[] = {N_SAMPLES}, s1[] = {1};
  dt_tensor *labels = dt_from_ints(dt_cpu(), buckets, 1, sb);
  dt_tensor *count = dt_sum(labels);
  dt_tensor *count1 = dt_reshape(count, 1, s1);
  dt_tensor *total = dt_full(dt_cpu(), (float)N_SAMPLES, 1, s1);
  dt_tensor *mean_bucket = dt_div(count1, total); // expect-error: kind-mismatch
  float v = -1.0f;
  if (mean_bucket && dt_read_floats(mean_bucket, &v, 1) == 0) printf("mean bucket %.3f\n", v);
  dt_free(labels);
  dt_free(count);
  dt_free(count1);
  dt_free(total);
  dt_free(mean_bucket);
}

int main(int argc, char **argv) {
  train_cfg cfg = {0.05f, 20, 7u};
  if (argc > 1) cfg.epochs = atoi(argv[1]) > 0 ? atoi(argv[1]) : cfg.epochs;
  float xh[N_SAMPLES * N_IN], yh[N_SAMPLES];
  make_dataset(xh, yh);

  mlp m;
  memset(&m, 0, sizeof m);
  mlp_init(&m, dt_autodiff(dt_cpu()), cfg.seed);
  mlp_to(&m, dt_autodiff(dt_sim(0)));
  float loss = train(&m, &cfg, xh, yh);
  printf("final loss %.5f\n", loss);

  mlp_export e;
  mlp_export_to(&m, &e, dt_cpu());
  const int64_t sx[] = {N_SAMPLES, N_IN};
  dt_tensor *xq = dt_from_floats(dt_cpu(), xh, 2, sx);
  dt_tensor *pred = serve_forward(&e, xq);
  float out[N_SAMPLES] = {0};
  if (pred && dt_read_floats(pred, out, N_SAMPLES) == 0)
    for (int i = 0; i < N_SAMPLES; ++i) printf("y[%d]=%.3f pred=%.3f\n", i, yh[i], out[i]);
  report_histogram();

  dt_free(pred);
  dt_free(xq);
  dt_free(e.w1);
  dt_free(e.b1);
  dt_free(e.w2);
  dt_free(e.b2);
  dt_free(m.w1);
  dt_free(m.b1);
  dt_free(m.w2);
  dt_free(m.b2);
  return 0;
}
