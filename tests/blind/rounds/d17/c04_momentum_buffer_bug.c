/* c04_momentum_buffer_bug.c — an autoencoder trained with SGD + momentum + weight decay on
 * autodiff<sim:0>. Parameters live in an array of named slots; the optimizer keeps one
 * velocity buffer per slot, created lazily on the first step "on the parameter's device".
 * Mistake: the velocity is created with dt_zeros(dt_device_of(param), ...), and
 * dt_device_of an autodiff parameter is the autodiff device, so the buffer is a tracked
 * autodiff tensor; the update then adds the plain gradient to it: autodiff-expected on the
 * first step, whatever the data. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEAT 8
#define CODE 3
#define BATCH 10
#define N_SLOTS 4

typedef struct Slot {
  const char *name;
  dt_tensor *value;    /* trainable leaf on the model's autodiff device */
  dt_tensor *velocity; /* optimizer state, NULL until the first step */
  int decay;           /* weight decay applies to matrices only */
} Slot;

typedef struct AutoEncoder {
  dt_device dev;
  Slot slots[N_SLOTS]; /* enc_w, enc_b, dec_w, dec_b */
} AutoEncoder;

typedef struct SgdConfig {
  float lr, momentum, weight_decay;
} SgdConfig;

static dt_tensor *trainable(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return dt_require_grad(t);
}

static void ae_init(AutoEncoder *m, dt_device ad) {
  dt_device in = dt_inner_device(ad);
  m->dev = ad;
  dt_tensor *ew = dt_randn(in, 3, 2, (const int64_t[]){FEAT, CODE});
  dt_tensor *dw = dt_randn(in, 4, 2, (const int64_t[]){CODE, FEAT});
  Slot init[N_SLOTS] = {
      {"enc_w", trainable(ad, dt_mul_scalar(ew, 0.25f)), NULL, 1},
      {"enc_b", trainable(ad, dt_zeros(in, DT_FLOAT, 1, (const int64_t[]){CODE})), NULL, 0},
      {"dec_w", trainable(ad, dt_mul_scalar(dw, 0.25f)), NULL, 1},
      {"dec_b", trainable(ad, dt_zeros(in, DT_FLOAT, 1, (const int64_t[]){FEAT})), NULL, 0},
  };
  memcpy(m->slots, init, sizeof init);
  dt_free(ew);
  dt_free(dw);
}

static dt_tensor *ae_forward(const AutoEncoder *m, const dt_tensor *x) {
  dt_tensor *c0 = dt_matmul(x, m->slots[0].value);
  dt_tensor *c1 = dt_add(c0, m->slots[1].value);
  dt_tensor *code = dt_sigmoid(c1);
  dt_tensor *r0 = dt_matmul(code, m->slots[2].value);
  dt_tensor *recon = dt_add(r0, m->slots[3].value);
  dt_free(c0);
  dt_free(c1);
  dt_free(code);
  dt_free(r0);
  return recon;
}

static dt_tensor *velocity_for(Slot *s) {
  if (!s->velocity) {
    dt_device d = dt_device_of(s->value);
    int rank = dt_rank(s->value);
    int64_t shape[DT_MAX_RANK];
    for (int a = 0; a < rank; a++)
      shape[a] = dt_dim(s->value, a);
    s->velocity = dt_zeros(d, DT_FLOAT, rank, shape);
  }
  return s->velocity;
}

static int sgd_update(Slot *s, const SgdConfig *cfg) {
  dt_tensor *g = dt_grad(s->value);
  if (!g)
    return 0;
  dt_device ad = dt_device_of(s->value);
  dt_tensor *inner = dt_inner(s->value);
  if (s->decay) {
    dt_tensor *wd = dt_mul_scalar(inner, cfg->weight_decay);
    dt_tensor *g2 = dt_add(g, wd);
    dt_free(g);
    dt_free(wd);
    g = g2;
  }
  dt_tensor *v = velocity_for(s);
  dt_tensor *vm = dt_mul_scalar(v, cfg->momentum);
  dt_tensor *v2 = dt_add(vm, g); // expect-error: autodiff-expected
  dt_free(vm);
  dt_free(s->velocity);
  s->velocity = v2;
  dt_tensor *step = dt_mul_scalar(v2, cfg->lr);
  dt_tensor *next = dt_sub(inner, step);
  dt_free(s->value);
  s->value = dt_require_grad(dt_from_inner(ad, next));
  dt_free(step);
  dt_free(next);
  dt_free(inner);
  dt_free(g);
  return 1;
}

static void fill_batch(float *xs, int epoch) {
  for (int i = 0; i < BATCH; i++)
    for (int j = 0; j < FEAT; j++)
      xs[i * FEAT + j] = ((i + j + epoch) % 3 == 0) ? 1.0f : 0.0f;
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 3;
  if (epochs <= 0)
    epochs = 3;
  SgdConfig cfg = {0.2f, 0.9f, 1e-4f};
  AutoEncoder ae;
  ae_init(&ae, dt_autodiff(dt_sim(0)));

  float xs[BATCH * FEAT];
  float best = 1e30f;
  int stale = 0;
  for (int epoch = 0; epoch < epochs; epoch++) {
    fill_batch(xs, epoch);
    dt_tensor *xp = dt_from_floats(dt_inner_device(ae.dev), xs, 2, (const int64_t[]){BATCH, FEAT});
    dt_tensor *x = dt_from_inner(ae.dev, xp);
    dt_tensor *recon = ae_forward(&ae, x);
    dt_tensor *loss = dt_mse_loss(recon, x);
    dt_backward(loss);
    float l = 0.0f;
    dt_read_floats(loss, &l, 1);
    int updated = 0;
    for (int s = 0; s < N_SLOTS; s++)
      updated += sgd_update(&ae.slots[s], &cfg);
    printf("epoch %d loss %.5f (%d slots updated)\n", epoch, l, updated);
    dt_free(xp);
    dt_free(x);
    dt_free(recon);
    dt_free(loss);
    if (l < best - 1e-4f) {
      best = l;
      stale = 0;
    } else if (++stale >= 2) {
      printf("early stop at epoch %d\n", epoch);
      break;
    }
  }
  for (int s = 0; s < N_SLOTS; s++) {
    dt_free(ae.slots[s].value);
    dt_free(ae.slots[s].velocity);
  }
  return 0;
}
