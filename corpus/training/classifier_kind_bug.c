// provenance: blind round field7
/* classifier_kind_bug.c — binary logistic classifier on autodiff<sim:0> with a validation pass.
 * The data loader was changed to return integer class ids for the validation split (they are
 * labels, after all), and the validation code still feeds them to float-only operations. The
 * accuracy step thresholds with a float mask instead of a bool one. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define N_FEAT 3
#define N_TRAIN 12
#define N_VAL 6

typedef enum { LOSS_MSE, LOSS_SCALED_MSE } loss_kind;

typedef struct {
  dt_device dev;
  dt_tensor *w; /* [N_FEAT,1] */
  dt_tensor *b; /* [1] */
} logreg;

typedef struct {
  float x[N_TRAIN * N_FEAT];
  float y[N_TRAIN];
  float vx[N_VAL * N_FEAT];
  int64_t vy[N_VAL];
} dataset;

static void make_data(dataset *d) {
  for (int i = 0; i < N_TRAIN; ++i) {
    float s = 0.0f;
    for (int j = 0; j < N_FEAT; ++j) {
      float v = (float)(((i + 1) * (j + 2)) % 7) / 7.0f - 0.4f;
      d->x[i * N_FEAT + j] = v;
      s += v;
    }
    d->y[i] = s > 0.0f ? 1.0f : 0.0f;
  }
  for (int i = 0; i < N_VAL; ++i) {
    float s = 0.0f;
    for (int j = 0; j < N_FEAT; ++j) {
      float v = (float)(((i + 3) * (j + 1)) % 5) / 5.0f - 0.4f;
      d->vx[i * N_FEAT + j] = v;
      s += v;
    }
    d->vy[i] = s > 0.0f ? 1 : 0;
  }
}

static void logreg_init(logreg *m, dt_device ad) {
  const int64_t sw[] = {N_FEAT, 1}, sb[] = {1};
  m->dev = ad;
  m->w = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, sw));
  m->b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, sb));
}

static dt_tensor *logreg_prob(const logreg *m, const dt_tensor *x) {
  dt_tensor *z = dt_matmul(x, m->w);
  dt_tensor *zb = dt_add(z, m->b);
  dt_tensor *p = dt_sigmoid(zb);
  dt_free(z);
  dt_free(zb);
  return p;
}

static dt_tensor *compute_loss(loss_kind k, const dt_tensor *p, const dt_tensor *y) {
  dt_tensor *l = dt_mse_loss(p, y);
  switch (k) {
  case LOSS_MSE:
    return l;
  case LOSS_SCALED_MSE: {
    dt_tensor *s = dt_mul_scalar(l, 4.0f);
    dt_free(l);
    return s;
  }
  }
  return l;
}

static void step(dt_tensor **param, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*param);
  if (!g) return;
  dt_tensor *v = dt_inner(*param);
  dt_tensor *gs = dt_mul_scalar(g, -lr);
  dt_tensor *nv = dt_add(v, gs);
  dt_free(*param);
  *param = dt_require_grad(dt_from_inner(ad, nv));
  dt_free(g);
  dt_free(v);
  dt_free(gs);
}

static dt_tensor *on_device(dt_device ad, const float *data, int rank, const int64_t *shape) {
  dt_tensor *h = dt_from_floats(dt_inner_device(ad), data, rank, shape);
  dt_tensor *t = dt_from_inner(ad, h);
  dt_free(h);
  return t;
}

static float fit(logreg *m, const dataset *d, int epochs, loss_kind lk) {
  const int64_t sx[] = {N_TRAIN, N_FEAT}, sy[] = {N_TRAIN, 1};
  dt_tensor *x = on_device(m->dev, d->x, 2, sx);
  dt_tensor *y = on_device(m->dev, d->y, 2, sy);
  float last = 0.0f;
  for (int e = 0; e < epochs; ++e) {
    dt_tensor *p = logreg_prob(m, x);
    dt_tensor *loss = compute_loss(lk, p, y);
    dt_backward(loss);
    step(&m->w, m->dev, 0.5f);
    step(&m->b, m->dev, 0.5f);
    dt_read_floats(loss, &last, 1);
    dt_free(p);
    dt_free(loss);
  }
  dt_free(x);
  dt_free(y);
  return last;
}

static void validate(const logreg *m, const dataset *d) {
  const int64_t sx[] = {N_VAL, N_FEAT}, sy[] = {N_VAL, 1};
  dt_tensor *x = on_device(m->dev, d->vx, 2, sx);
  dt_tensor *yi = dt_from_ints(dt_inner_device(m->dev), d->vy, 2, sy);
  dt_tensor *y = dt_from_inner(m->dev, yi);
  dt_tensor *p = logreg_prob(m, x);
  dt_tensor *vloss = dt_mse_loss(p, y); // expect-error: kind-mismatch
  float lv = -1.0f;
  if (vloss) dt_read_floats(vloss, &lv, 1);
  printf("validation loss %.4f\n", lv);

  /* accuracy: predicted class = p > 0.5 */
  dt_tensor *half = dt_full(m->dev, 0.5f, 2, sy);
  dt_tensor *mask = dt_sub(p, half);
  dt_tensor *one = dt_ones(m->dev, DT_FLOAT, 2, sy);
  dt_tensor *zero = dt_zeros(m->dev, DT_FLOAT, 2, sy);
  dt_tensor *cls = dt_where(mask, one, zero); // expect-error: kind-mismatch
  float out[N_VAL] = {0};
  if (cls && dt_read_floats(cls, out, N_VAL) == 0) {
    int correct = 0;
    for (int i = 0; i < N_VAL; ++i) correct += (out[i] > 0.5f) == (d->vy[i] == 1);
    printf("accuracy %d/%d\n", correct, N_VAL);
  }
  dt_free(x);
  dt_free(yi);
  dt_free(y);
  dt_free(p);
  dt_free(vloss);
  dt_free(half);
  dt_free(mask);
  dt_free(one);
  dt_free(zero);
  dt_free(cls);
}

int main(int argc, char **argv) {
  dataset d;
  make_data(&d);
  loss_kind lk = (argc > 1 && atoi(argv[1]) == 1) ? LOSS_SCALED_MSE : LOSS_MSE;
  logreg m;
  logreg_init(&m, dt_autodiff(dt_sim(0)));
  float l = fit(&m, &d, 25, lk);
  printf("train loss %.4f\n", l);
  validate(&m, &d);
  dt_free(m.w);
  dt_free(m.b);
  return 0;
}
