/* Wide-and-deep style regressor with gradient accumulation: ACCUM micro-batches are
 * back-propagated, their gradients summed into plain accumulators on the inner device, and one
 * optimizer step is taken per ACCUM micro-batches.  A small data loader shuffles a synthetic
 * dataset each epoch with an LCG.  Loss scaling as in mixed-precision training.
 *
 *   usage: c07 [EPOCHS] [ACCUM] [DEVICE: cpu|sim0|sim1]
 */
// run-args: 4 3 sim0
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_SAMPLES 96
#define F_WIDE 6
#define F_DEEP 4
#define HID 8
#define MB 8

typedef struct Dataset {
  float wide[N_SAMPLES][F_WIDE];
  float deep[N_SAMPLES][F_DEEP];
  float y[N_SAMPLES];
  int order[N_SAMPLES];
  uint32_t rng;
} Dataset;

typedef struct Loader {
  Dataset *ds;
  int cursor;
  dt_device dev;
  int (*next)(struct Loader *, dt_tensor **wide, dt_tensor **deep, dt_tensor **y);
} Loader;

enum { P_WIDE, P_DEEP1, P_DEEPB, P_DEEP2, P_BIAS, N_P };

typedef struct Model {
  dt_device ad;
  dt_tensor *p[N_P];
  dt_tensor *acc[N_P]; /* plain gradient accumulators */
  int rank[N_P];
  int64_t shape[N_P][2];
} Model;

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static void dataset_init(Dataset *d) {
  d->rng = 12345u;
  for (int i = 0; i < N_SAMPLES; i++) {
    float t = 0.0f;
    for (int j = 0; j < F_WIDE; j++) {
      d->wide[i][j] = (float)((i * 7 + j * 3) % 5) / 4.0f;
      t += 0.3f * d->wide[i][j] * (float)(j % 3 - 1);
    }
    for (int j = 0; j < F_DEEP; j++) {
      d->deep[i][j] = sinf(0.1f * (float)(i * (j + 1)));
      t += 0.5f * tanhf(d->deep[i][j]);
    }
    d->y[i] = t;
    d->order[i] = i;
  }
}

static void dataset_shuffle(Dataset *d) {
  for (int i = N_SAMPLES - 1; i > 0; i--) {
    int j = (int)(lcg(&d->rng) % (uint32_t)(i + 1));
    int t = d->order[i];
    d->order[i] = d->order[j];
    d->order[j] = t;
  }
}

static int loader_next(Loader *l, dt_tensor **wide, dt_tensor **deep, dt_tensor **y) {
  if (l->cursor + MB > N_SAMPLES) return 0;
  float w[MB * F_WIDE], dp[MB * F_DEEP], yy[MB];
  for (int r = 0; r < MB; r++) {
    int idx = l->ds->order[l->cursor + r];
    memcpy(&w[r * F_WIDE], l->ds->wide[idx], sizeof(float) * F_WIDE);
    memcpy(&dp[r * F_DEEP], l->ds->deep[idx], sizeof(float) * F_DEEP);
    yy[r] = l->ds->y[idx];
  }
  l->cursor += MB;
  *wide = dt_from_floats(l->dev, w, 2, (const int64_t[]){MB, F_WIDE});
  *deep = dt_from_floats(l->dev, dp, 2, (const int64_t[]){MB, F_DEEP});
  *y = dt_from_floats(l->dev, yy, 2, (const int64_t[]){MB, 1});
  return 1;
}

static void model_init(Model *m, dt_device dev) {
  const int64_t shapes[N_P][2] = {{F_WIDE, 1}, {F_DEEP, HID}, {HID, 0}, {HID, 1}, {1, 0}};
  m->ad = dt_autodiff(dev);
  for (int i = 0; i < N_P; i++) {
    m->shape[i][0] = shapes[i][0];
    m->shape[i][1] = shapes[i][1];
    m->rank[i] = shapes[i][1] ? 2 : 1;
    dt_tensor *r = dt_randn(dev, 77u + (uint64_t)i, m->rank[i], m->shape[i]);
    dt_tensor *s = dt_mul_scalar(r, m->rank[i] == 2 ? 0.3f : 0.0f);
    m->p[i] = dt_require_grad(dt_from_inner(m->ad, s));
    m->acc[i] = dt_zeros(dev, DT_FLOAT, m->rank[i], m->shape[i]);
    dt_free(r);
    dt_free(s);
  }
}

static dt_tensor *forward(const Model *m, const dt_tensor *wide, const dt_tensor *deep) {
  dt_tensor *lw = dt_matmul(wide, m->p[P_WIDE]);
  dt_tensor *z = dt_matmul(deep, m->p[P_DEEP1]);
  dt_tensor *zb = dt_add(z, m->p[P_DEEPB]);
  dt_tensor *h = dt_tanh(zb);
  dt_tensor *ld = dt_matmul(h, m->p[P_DEEP2]);
  dt_tensor *sum = dt_add(lw, ld);
  dt_tensor *out = dt_add(sum, m->p[P_BIAS]);
  dt_free(lw);
  dt_free(z);
  dt_free(zb);
  dt_free(h);
  dt_free(ld);
  dt_free(sum);
  return out;
}

static void accumulate(Model *m, float inv_scale) {
  for (int i = 0; i < N_P; i++) {
    dt_tensor *g = dt_grad(m->p[i]);
    if (!g) continue;
    dt_tensor *gs = dt_mul_scalar(g, inv_scale);
    dt_tensor *na = dt_add(m->acc[i], gs);
    dt_free(m->acc[i]);
    m->acc[i] = na;
    dt_free(g);
    dt_free(gs);
  }
}

static dt_tensor *wrap_param(dt_device ad, dt_tensor *value) {
  dt_tensor *w = dt_from_inner(ad, value); // expect-error: autodiff-nested
  return dt_require_grad(w);
}

static void apply_update(Model *m, int i, float lr, int accum) {
  dt_tensor *gad = dt_from_inner(m->ad, m->acc[i]);
  dt_tensor *step = dt_mul_scalar(gad, lr / (float)accum);
  dt_tensor *upd = dt_sub(m->p[i], step);
  dt_free(m->p[i]);
  m->p[i] = wrap_param(m->ad, upd);
  dt_free(upd);
  dt_free(step);
  dt_free(gad);
}

static void optimizer_step(Model *m, float lr, int accum) {
  for (int i = 0; i < N_P; i++) {
    apply_update(m, i, lr, accum);
    dt_tensor *z = dt_zeros(dt_inner_device(m->ad), DT_FLOAT, m->rank[i], m->shape[i]);
    dt_free(m->acc[i]);
    m->acc[i] = z;
  }
}

static dt_device device_arg(const char *s) {
  if (!s) return dt_sim(0);
  if (!strcmp(s, "cpu")) return dt_cpu();
  if (!strcmp(s, "sim1")) return dt_sim(1);
  return dt_sim(0);
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 3;
  int accum = argc > 2 ? atoi(argv[2]) : 4;
  dt_device dev = device_arg(argc > 3 ? argv[3] : NULL);
  const float loss_scale = 128.0f, lr = 0.05f;
  if (accum < 1) accum = 1;

  static Dataset ds;
  dataset_init(&ds);
  Model m;
  model_init(&m, dev);
  Loader ld = {&ds, 0, m.ad, loader_next};

  for (int epoch = 0; epoch < epochs; epoch++) {
    dataset_shuffle(&ds);
    ld.cursor = 0;
    int micro = 0, updates = 0;
    float total = 0.0f;
    dt_tensor *wide, *deep, *y;
    while (ld.next(&ld, &wide, &deep, &y)) {
      dt_tensor *pred = forward(&m, wide, deep);
      dt_tensor *loss = dt_mse_loss(pred, y);
      dt_tensor *scaled = dt_mul_scalar(loss, loss_scale);
      dt_tensor *li = dt_inner(loss);
      float lv = 0.0f;
      dt_read_floats(li, &lv, 1);
      total += lv;
      dt_backward(scaled);
      accumulate(&m, 1.0f / loss_scale);
      if (++micro % accum == 0) {
        optimizer_step(&m, lr, accum);
        updates++;
      }
      dt_free(li);
      dt_free(scaled);
      dt_free(loss);
      dt_free(pred);
      dt_free(wide);
      dt_free(deep);
      dt_free(y);
    }
    if (micro % accum != 0) { /* flush the partial accumulation at the end of the epoch */
      optimizer_step(&m, lr, micro % accum);
      updates++;
    }
    printf("epoch %d: %d micro-batches, %d updates, loss %.4f\n", epoch, micro, updates,
           total / (float)micro);
  }
  for (int i = 0; i < N_P; i++) {
    dt_free(m.p[i]);
    dt_free(m.acc[i]);
  }
  return 0;
}
