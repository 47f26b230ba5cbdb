// provenance: blind round d12
// run-args: --accum 4 --device sim1
/* Binary classifier trained on autodiff<dev> with gradient accumulation over micro-batches
 * from a ring-buffer data loader; evaluation thresholds predicted probabilities. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEAT 5
#define HID 10
#define MB 4
#define DATASET 48

typedef struct {
  float x[DATASET][FEAT];
  float y[DATASET];
  int cursor;
} loader_t;

typedef struct {
  dt_device ad, dev;
  dt_tensor *p[4];      /* w1 b1 w2 b2 */
  dt_tensor *acc[4];    /* accumulated gradients */
  int64_t shape[4][2];
  int accum_steps;
} model_t;

static void loader_init(loader_t *l, unsigned seed) {
  unsigned s = seed;
  for (int i = 0; i < DATASET; i++) {
    float dot = 0.0f;
    for (int j = 0; j < FEAT; j++) {
      s = s * 1103515245u + 12345u;
      float v = (float)((s >> 16) & 0x7fff) / 16384.0f - 1.0f;
      l->x[i][j] = v;
      dot += v * (j < 2 ? 1.0f : -0.5f);
    }
    l->y[i] = dot > 0.0f ? 1.0f : 0.0f;
  }
  l->cursor = 0;
}

static void loader_next(loader_t *l, float *xb, float *yb) {
  for (int b = 0; b < MB; b++) {
    memcpy(xb + b * FEAT, l->x[l->cursor], sizeof(float) * FEAT);
    yb[b] = l->y[l->cursor];
    l->cursor = (l->cursor + 1) % DATASET;
  }
}

static void model_init(model_t *m, dt_device dev, int accum) {
  int64_t sh[4][2] = {{FEAT, HID}, {1, HID}, {HID, 1}, {1, 1}};
  memcpy(m->shape, sh, sizeof sh);
  m->dev = dev;
  m->ad = dt_autodiff(dev);
  m->accum_steps = accum;
  for (int i = 0; i < 4; i++) {
    if (i % 2 == 0) {
      dt_tensor *r = dt_randn(dev, 9 + i, 2, sh[i]);
      dt_tensor *rs = dt_mul_scalar(r, 0.5f);
      m->p[i] = dt_require_grad(dt_from_inner(m->ad, rs));
      dt_free(r);
      dt_free(rs);
    } else {
      m->p[i] = dt_require_grad(dt_zeros(m->ad, DT_FLOAT, 2, sh[i]));
    }
    m->acc[i] = dt_zeros(m->ad, DT_FLOAT, 2, sh[i]);
  }
}

static dt_tensor *model_forward(const model_t *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->p[0]);
  dt_tensor *hb = dt_add(h, m->p[1]);
  dt_tensor *ha = dt_relu(hb);
  dt_tensor *o = dt_matmul(ha, m->p[2]);
  dt_tensor *ob = dt_add(o, m->p[3]);
  dt_tensor *pr = dt_sigmoid(ob);
  dt_free(h); dt_free(hb); dt_free(ha); dt_free(o); dt_free(ob);
  return pr;
}

static void model_accumulate(model_t *m) {
  for (int i = 0; i < 4; i++) {
    dt_tensor *g = dt_grad(m->p[i]);
    if (!g) continue;
    dt_tensor *n = dt_add(m->acc[i], g); // expect-error: autodiff-expected
    dt_free(m->acc[i]);
    m->acc[i] = n;
    dt_free(g);
  }
}

static void model_step(model_t *m, float lr) {
  for (int i = 0; i < 4; i++) {
    if (!m->acc[i]) continue; /* nothing accumulated for this parameter */
    dt_tensor *avg = dt_mul_scalar(m->acc[i], lr / m->accum_steps);
    dt_tensor *cur = dt_inner(m->p[i]);
    dt_tensor *nx = dt_sub(cur, avg);
    if (nx) {
      dt_free(m->p[i]);
      m->p[i] = dt_require_grad(dt_from_inner(m->ad, nx));
    }
    dt_free(m->acc[i]);
    m->acc[i] = dt_zeros(m->ad, DT_FLOAT, 2, m->shape[i]);
    dt_free(avg); dt_free(cur); dt_free(nx);
  }
}

static float evaluate(const model_t *m, loader_t *l) {
  float xb[MB * FEAT], yb[MB];
  int64_t xs[2] = {MB, FEAT}, ys[2] = {MB, 1};
  int64_t half[2] = {1, 1};
  int64_t thr_val = 0;
  int correct = 0, total = 0;
  dt_tensor *thr = dt_from_ints(m->ad, &thr_val, 2, half);
  for (int b = 0; b < DATASET / MB; b++) {
    loader_next(l, xb, yb);
    dt_tensor *x = dt_from_floats(m->ad, xb, 2, xs);
    dt_tensor *p = model_forward(m, x);
    dt_tensor *centered = dt_add_scalar(p, -0.5f);
    dt_tensor *is_pos = dt_greater(centered, thr); // expect-error: kind-mismatch
    dt_tensor *lab = dt_from_floats(m->ad, yb, 2, ys);
    dt_tensor *lab_pos = dt_greater(lab, centered);
    float probs[MB];
    if (dt_read_floats(p, probs, MB) == 0)
      for (int i = 0; i < MB; i++) correct += (probs[i] > 0.5f) == (yb[i] > 0.5f);
    total += MB;
    dt_free(x); dt_free(p); dt_free(centered); dt_free(is_pos); dt_free(lab); dt_free(lab_pos);
  }
  dt_free(thr);
  return total ? (float)correct / total : 0.0f;
}

int main(int argc, char **argv) {
  int accum = 2;
  const char *devname = "cpu";
  for (int i = 1; i + 1 < argc; i++) {
    if (!strcmp(argv[i], "--accum")) accum = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--device")) devname = argv[i + 1];
  }
  if (accum < 1) accum = 1;
  dt_device dev = !strcmp(devname, "sim0") ? dt_sim(0) : !strcmp(devname, "sim1") ? dt_sim(1) : dt_cpu();
  loader_t train, test;
  loader_init(&train, 1u);
  loader_init(&test, 2u);
  model_t m;
  model_init(&m, dev, accum);
  float xb[MB * FEAT], yb[MB];
  int64_t xs[2] = {MB, FEAT}, ys[2] = {MB, 1};
  for (int step = 0; step < 12; step++) {
    float lsum = 0.0f;
    for (int a = 0; a < accum; a++) {
      loader_next(&train, xb, yb);
      dt_tensor *x = dt_from_floats(m.ad, xb, 2, xs);
      dt_tensor *y = dt_from_floats(m.ad, yb, 2, ys);
      dt_tensor *p = model_forward(&m, x);
      dt_tensor *loss = dt_mse_loss(p, y);
      float lv = 0.0f;
      dt_read_floats(loss, &lv, 1);
      lsum += lv;
      dt_backward(loss);
      model_accumulate(&m);
      dt_free(x); dt_free(y); dt_free(p); dt_free(loss);
    }
    model_step(&m, 1.0f);
    if (step % 4 == 0) printf("step %d loss %.4f\n", step, lsum / accum);
  }
  printf("test accuracy %.3f\n", evaluate(&m, &test));
  for (int i = 0; i < 4; i++) { dt_free(m.p[i]); dt_free(m.acc[i]); }
  return 0;
}
