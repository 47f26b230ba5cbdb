// Variational autoencoder with the reparameterization trick, Adam with its moments on the
// training device, KL annealing through a schedule function pointer, and prior sampling
// from a host copy of the decoder.
// run-args: sim1 6 kl-cyclic
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 8
#define HID 12
#define LAT 3
#define BATCH 5
#define NPARAM 4

enum { W_ENC = 0, W_MU = 1, W_LV = 2, W_DEC = 3 };

typedef struct Adam {
  dt_tensor *m[NPARAM], *v[NPARAM];
  float b1, b2, lr;
  int t;
} Adam;

typedef struct Vae {
  dt_tensor *w[NPARAM]; /* plain, on the training device's inner device */
  dt_device ad;
} Vae;

typedef float (*beta_fn)(int epoch, int epochs);

static float beta_linear(int e, int n) { return n > 1 ? (float)e / (float)(n - 1) : 1.0f; }
static float beta_cyclic(int e, int n) { (void)n; return (float)(e % 3) / 2.0f; }
static float beta_const(int e, int n) { (void)e; (void)n; return 0.5f; }

static dt_device pick_device(const char *name) {
  if (strcmp(name, "sim0") == 0) return dt_sim(0);
  if (strcmp(name, "sim1") == 0) return dt_sim(1);
  if (strcmp(name, "cuda") == 0) return dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_sim(0);
  return dt_cpu();
}

static void vae_init(Vae *m, dt_device dev) {
  static const int64_t shapes[NPARAM][2] = {{IN, HID}, {HID, LAT}, {HID, LAT}, {LAT, IN}};
  m->ad = dt_autodiff(dev);
  for (int i = 0; i < NPARAM; i++)
    m->w[i] = dt_mul_scalar(dt_randn(dev, 100 + (uint64_t)i, 2, shapes[i]), 0.25f);
}

static void adam_init(Adam *o, const Vae *m, float lr) {
  for (int i = 0; i < NPARAM; i++) {
    int64_t s[2] = {dt_dim(m->w[i], 0), dt_dim(m->w[i], 1)};
    o->m[i] = dt_zeros(dt_device_of(m->w[i]), DT_FLOAT, 2, s);
    o->v[i] = dt_zeros(dt_device_of(m->w[i]), DT_FLOAT, 2, s);
  }
  o->b1 = 0.9f; o->b2 = 0.999f; o->lr = lr; o->t = 0;
}

static dt_tensor *sqrt_pos(dt_tensor *x) {
  dt_tensor *l = dt_log(dt_add_scalar(x, 1e-8f));
  dt_tensor *h = dt_mul_scalar(l, 0.5f);
  dt_tensor *r = dt_exp(h);
  dt_free(l); dt_free(h);
  return r;
}

static void adam_step(Adam *o, Vae *m, dt_tensor *const *tracked) {
  o->t++;
  float c1 = 1.0f - powf(o->b1, (float)o->t), c2 = 1.0f - powf(o->b2, (float)o->t);
  for (int i = 0; i < NPARAM; i++) {
    dt_tensor *g = dt_grad(tracked[i]);
    if (!g) continue;
    dt_tensor *m1 = dt_add(dt_mul_scalar(o->m[i], o->b1), dt_mul_scalar(g, 1.0f - o->b1));
    dt_tensor *v1 = dt_add(dt_mul_scalar(o->v[i], o->b2), dt_mul_scalar(dt_mul(g, g), 1.0f - o->b2));
    dt_tensor *den = sqrt_pos(dt_mul_scalar(v1, 1.0f / c2));
    dt_tensor *step = dt_div(dt_mul_scalar(m1, o->lr / c1), dt_add_scalar(den, 1e-6f));
    dt_tensor *nw = dt_sub(m->w[i], step);
    dt_free(o->m[i]); dt_free(o->v[i]); dt_free(m->w[i]);
    o->m[i] = m1; o->v[i] = v1; m->w[i] = nw;
    dt_free(den); dt_free(step); dt_free(g);
  }
}

static void make_batch(float *x, int epoch, int b) {
  for (int i = 0; i < BATCH * IN; i++) {
    int row = i / IN, col = i % IN;
    x[i] = ((row + b + epoch) % 2 == 0) == (col < IN / 2) ? 0.9f : 0.1f;
  }
}

static dt_tensor *elbo(dt_tensor *const *w, dt_tensor *x, dt_device ad, uint64_t seed, float beta) {
  int64_t zs[2] = {BATCH, LAT};
  dt_tensor *h = dt_relu(dt_matmul(x, w[W_ENC]));
  dt_tensor *mu = dt_matmul(h, w[W_MU]);
  dt_tensor *logvar = dt_matmul(h, w[W_LV]);
  dt_tensor *eps = dt_from_inner(ad, dt_randn(dt_inner_device(ad), seed, 2, zs));
  dt_tensor *std = dt_exp(dt_mul_scalar(logvar, 0.5f));
  dt_tensor *z = dt_add(mu, dt_mul(std, eps));
  dt_tensor *xhat = dt_sigmoid(dt_matmul(z, w[W_DEC]));
  dt_tensor *rec = dt_mse_loss(xhat, x);
  dt_tensor *kl_terms = dt_sub(dt_sub(dt_add_scalar(logvar, 1.0f), dt_mul(mu, mu)), dt_exp(logvar));
  dt_tensor *kl = dt_mul_scalar(dt_mean(kl_terms), -0.5f);
  dt_tensor *loss = dt_add(rec, dt_mul_scalar(kl, beta));
  dt_free(h); dt_free(mu); dt_free(logvar); dt_free(eps); dt_free(std); dt_free(z);
  dt_free(xhat); dt_free(rec); dt_free(kl_terms); dt_free(kl);
  return loss;
}

static float train_epoch(Vae *m, Adam *o, int epoch, int epochs, beta_fn beta, int batches) {
  float total = 0.0f;
  int64_t xs[2] = {BATCH, IN};
  for (int b = 0; b < batches; b++) {
    float host[BATCH * IN];
    make_batch(host, epoch, b);
    dt_tensor *tracked[NPARAM];
    for (int i = 0; i < NPARAM; i++) tracked[i] = dt_require_grad(dt_from_inner(m->ad, m->w[i]));
    dt_tensor *x = dt_from_floats(m->ad, host, 2, xs);
    dt_tensor *loss = elbo(tracked, x, m->ad, (uint64_t)(epoch * 31 + b), beta(epoch, epochs));
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    total += lv;
    dt_backward(loss);
    adam_step(o, m, tracked);
    for (int i = 0; i < NPARAM; i++) dt_free(tracked[i]);
    dt_free(x); dt_free(loss);
  }
  return total / (float)batches;
}

/* decode prior samples with a host copy of the decoder */
static void sample_prior(const Vae *m, int n) {
  int64_t zs[2] = {n, LAT};
  dt_tensor *dec = dt_to_device(m->w[W_DEC], dt_cpu());
  dt_tensor *z = dt_randn(dt_cpu(), 4242, 2, zs);
  dt_tensor *x = dt_sigmoid(dt_matmul(z, dec));
  float out[4 * IN];
  dt_read_floats(x, out, (int64_t)n * IN);
  printf("sample[0][0..3] = %.3f %.3f %.3f %.3f\n", out[0], out[1], out[2], out[3]);
  dt_free(dec); dt_free(z); dt_free(x);
}

int main(int argc, char **argv) {
  dt_device dev = pick_device(argc > 1 ? argv[1] : "cpu");
  int epochs = argc > 2 ? atoi(argv[2]) : 3;
  const char *sched = argc > 3 ? argv[3] : "kl-linear";
  beta_fn beta = strcmp(sched, "kl-cyclic") == 0 ? beta_cyclic
                 : strcmp(sched, "kl-const") == 0 ? beta_const : beta_linear;
  Vae m;
  Adam o;
  vae_init(&m, dev);
  adam_init(&o, &m, 0.01f);
  for (int e = 0; e < epochs; e++) {
    float l = train_epoch(&m, &o, e, epochs, beta, 2 + e % 2);
    printf("epoch %d loss %.4f\n", e, l);
  }
  sample_prior(&m, 4);
  for (int i = 0; i < NPARAM; i++) { dt_free(m.w[i]); dt_free(o.m[i]); dt_free(o.v[i]); }
  return 0;
}
