// Least-squares GAN: generator trained on autodiff<sim:0> with SGD+momentum, discriminator on
// its own autodiff device (sim:1 by default, or next to the generator with --colocate) with
// RMSprop. Fake samples cross to the discriminator's device; the generator's gradients flow back.
// run-args: --steps 4 --colocate
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZDIM 3
#define XDIM 4
#define GH 8
#define DH 6
#define BATCH 6

typedef struct Gen {
  dt_tensor *w[2];   /* tracked leaves on autodiff<sim:0>, re-wrapped after every update */
  dt_tensor *vel[2]; /* plain momentum buffers on the inner device */
} Gen;

typedef struct Disc {
  dt_device ad;
  dt_tensor *w[2];  /* plain on dt_inner_device(ad) */
  dt_tensor *sq[2]; /* RMSprop running squares */
} Disc;

typedef struct Config {
  int steps, d_steps, colocate;
  float g_lr, d_lr;
} Config;

static Config parse_args(int argc, char **argv) {
  Config c = {3, 1, 0, 0.05f, 0.02f};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) c.steps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--d-steps") == 0 && i + 1 < argc) c.d_steps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--colocate") == 0) c.colocate = 1;
    else if (strcmp(argv[i], "--g-lr") == 0 && i + 1 < argc) c.g_lr = (float)atof(argv[++i]);
  }
  if (c.d_steps < 1) c.d_steps = 1;
  return c;
}

static void gen_init(Gen *g, dt_device ad) {
  int64_t s0[2] = {ZDIM, GH}, s1[2] = {GH, XDIM};
  const int64_t *sh[2] = {s0, s1};
  for (int i = 0; i < 2; i++) {
    dt_tensor *raw = dt_mul_scalar(dt_randn(dt_inner_device(ad), 5 + (uint64_t)i, 2, sh[i]), 0.4f);
    g->vel[i] = dt_zeros(dt_inner_device(ad), DT_FLOAT, 2, sh[i]);
    g->w[i] = dt_require_grad(dt_from_inner(ad, raw));
  }
}

static void disc_init(Disc *d, dt_device base) {
  int64_t s0[2] = {XDIM, DH}, s1[2] = {DH, 1};
  const int64_t *sh[2] = {s0, s1};
  d->ad = dt_autodiff(base); // expect-warning: autodiff-nested
  for (int i = 0; i < 2; i++) {
    d->w[i] = dt_mul_scalar(dt_randn(dt_inner_device(d->ad), 50 + (uint64_t)i, 2, sh[i]), 0.4f);
    d->sq[i] = dt_zeros(dt_inner_device(d->ad), DT_FLOAT, 2, sh[i]);
  }
}

static dt_tensor *generate(const Gen *g, dt_device ad, uint64_t seed) {
  int64_t zs[2] = {BATCH, ZDIM};
  dt_tensor *z = dt_from_inner(ad, dt_randn(dt_inner_device(ad), seed, 2, zs));
  dt_tensor *h = dt_tanh(dt_matmul(z, g->w[0]));
  dt_tensor *x = dt_matmul(h, g->w[1]);
  dt_free(z); dt_free(h);
  return x;
}

static dt_tensor *discriminate(dt_tensor *const *dw, dt_tensor *x) {
  dt_tensor *h = dt_relu(dt_matmul(x, dw[0]));
  dt_tensor *p = dt_sigmoid(dt_matmul(h, dw[1]));
  dt_free(h);
  return p;
}

static dt_tensor *real_batch(dt_device ad, int step) {
  float host[BATCH * XDIM];
  int64_t xs[2] = {BATCH, XDIM};
  for (int i = 0; i < BATCH * XDIM; i++) host[i] = 0.5f + 0.3f * (float)(((i + step) % 5) - 2) / 2.0f;
  return dt_from_floats(ad, host, 2, xs);
}

static dt_tensor *target_like(dt_device ad, float v) {
  int64_t ts[2] = {BATCH, 1};
  return dt_full(ad, v, 2, ts);
}

static float disc_step(Disc *d, dt_tensor *fake, int step, float lr) {
  dt_tensor *dw[2];
  for (int i = 0; i < 2; i++) dw[i] = dt_require_grad(dt_from_inner(d->ad, d->w[i]));
  dt_tensor *fake_d = dt_to_device(dt_detach(fake), d->ad);
  dt_tensor *real = real_batch(d->ad, step);
  dt_tensor *ones = target_like(d->ad, 1.0f), *zeros = target_like(d->ad, 0.0f);
  dt_tensor *loss = dt_add(dt_mse_loss(discriminate(dw, real), ones), dt_mse_loss(discriminate(dw, fake_d), zeros));
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  for (int i = 0; i < 2; i++) {
    dt_tensor *g = dt_grad(dw[i]);
    if (!g) continue;
    dt_tensor *sq = dt_add(dt_mul_scalar(d->sq[i], 0.9f), dt_mul_scalar(dt_mul(g, g), 0.1f));
    dt_tensor *den = dt_exp(dt_mul_scalar(dt_log(dt_add_scalar(sq, 1e-8f)), 0.5f));
    dt_tensor *nw = dt_sub(d->w[i], dt_div(dt_mul_scalar(g, lr), dt_add_scalar(den, 1e-6f)));
    dt_free(d->sq[i]); dt_free(d->w[i]);
    d->sq[i] = sq; d->w[i] = nw;
    dt_free(g); dt_free(den); dt_free(dw[i]);
  }
  dt_free(fake_d); dt_free(real); dt_free(ones); dt_free(zeros); dt_free(loss);
  return lv;
}

static float gen_step(Gen *g, dt_device gad, const Disc *d, uint64_t seed, float lr) {
  dt_tensor *dw[2] = {dt_from_inner(d->ad, d->w[0]), dt_from_inner(d->ad, d->w[1])};
  dt_tensor *fake = generate(g, gad, seed);
  dt_tensor *moved = dt_to_device(fake, d->ad);
  dt_tensor *ones = target_like(d->ad, 1.0f);
  dt_tensor *loss = dt_mse_loss(discriminate(dw, moved), ones);
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  for (int i = 0; i < 2; i++) {
    dt_tensor *gr = dt_grad(g->w[i]);
    if (!gr) continue;
    dt_tensor *v = dt_add(dt_mul_scalar(g->vel[i], 0.8f), gr);
    dt_tensor *inner = dt_inner(g->w[i]);
    dt_tensor *nw = dt_sub(inner, dt_mul_scalar(v, lr));
    dt_free(g->vel[i]); dt_free(g->w[i]);
    g->vel[i] = v;
    g->w[i] = dt_require_grad(dt_from_inner(gad, nw));
    dt_free(gr); dt_free(inner);
  }
  dt_free(dw[0]); dt_free(dw[1]); dt_free(fake); dt_free(moved); dt_free(ones); dt_free(loss);
  return lv;
}

int main(int argc, char **argv) {
  Config cfg = parse_args(argc, argv);
  dt_device gad = dt_autodiff(dt_sim(0));
  Gen g;
  Disc d;
  gen_init(&g, gad);
  dt_device dbase = cfg.colocate ? dt_device_of(g.w[0]) : dt_sim(1);
  disc_init(&d, dbase);
  for (int s = 0; s < cfg.steps; s++) {
    float dl = 0.0f;
    for (int k = 0; k < cfg.d_steps; k++) {
      dt_tensor *fake = generate(&g, gad, 900 + (uint64_t)(s * 7 + k));
      dl += disc_step(&d, fake, s, cfg.d_lr);
      dt_free(fake);
    }
    float gl = gen_step(&g, gad, &d, 1000 + (uint64_t)s, cfg.g_lr);
    printf("step %d d_loss %.4f g_loss %.4f\n", s, dl / (float)cfg.d_steps, gl);
  }
  for (int i = 0; i < 2; i++) { dt_free(g.w[i]); dt_free(g.vel[i]); dt_free(d.w[i]); dt_free(d.sq[i]); }
  return 0;
}
