// corpus/training/mlp_autodiff_sim_clean.c — a complete small training program: a synthetic
// dataset, a batch loader, a two-layer MLP in a struct (init/forward/params), SGD through
// dt_grad/dt_inner/dt_from_inner, an evaluation loop on the plain inner device with weights
// taken through dt_inner, and cleanup. Everything trains on autodiff<sim:0>. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define IN 4
#define HIDDEN 8
#define OUT 1
#define BATCH 8
#define N_BATCHES 4
#define EPOCHS 5

typedef struct dataset {
  float x[N_BATCHES * BATCH * IN];
  float y[N_BATCHES * BATCH * OUT];
} dataset;

typedef struct mlp {
  dt_device dev;
  dt_tensor *w1, *b1, *w2, *b2;
} mlp;

static void dataset_init(dataset *d) {
  for (int i = 0; i < N_BATCHES * BATCH; i++) {
    float s = 0;
    for (int j = 0; j < IN; j++) {
      d->x[i * IN + j] = (float)((i * 7 + j * 3) % 11) / 11.0f - 0.5f;
      s += d->x[i * IN + j];
    }
    d->y[i] = s > 0 ? 1.0f : 0.0f;
  }
}

static void load_batch(const dataset *d, int b, dt_device dev, dt_tensor **x, dt_tensor **y) {
  *x = dt_from_floats(dev, d->x + b * BATCH * IN, 2, (const int64_t[]){BATCH, IN});
  *y = dt_from_floats(dev, d->y + b * BATCH * OUT, 2, (const int64_t[]){BATCH, OUT});
}

static void mlp_init(mlp *m, dt_device dev) {
  m->dev = dev;
  dt_tensor *w1 = dt_randn(dev, 1, 2, (const int64_t[]){IN, HIDDEN});
  dt_tensor *w2 = dt_randn(dev, 2, 2, (const int64_t[]){HIDDEN, OUT});
  m->w1 = dt_require_grad(dt_mul_scalar(w1, 0.5f));
  m->w2 = dt_require_grad(dt_mul_scalar(w2, 0.5f));
  m->b1 = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){HIDDEN}));
  m->b2 = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){OUT}));
  dt_free(w1);
  dt_free(w2);
}

static dt_tensor *mlp_forward(const dt_tensor *w1, const dt_tensor *b1, const dt_tensor *w2,
                              const dt_tensor *b2, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, w1);
  dt_tensor *b = dt_add(a, b1);
  dt_tensor *h = dt_tanh(b);
  dt_tensor *c = dt_matmul(h, w2);
  dt_tensor *y = dt_add(c, b2);
  dt_tensor *p = dt_sigmoid(y);
  dt_free(y);
  dt_free(c);
  dt_free(h);
  dt_free(b);
  dt_free(a);
  return p;
}

static void sgd_update(dt_device dev, dt_tensor **param, float lr) {
  dt_tensor *g = dt_grad(*param);
  if (!g) return;
  dt_tensor *plain = dt_inner(*param);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *next = dt_sub(plain, step);
  dt_tensor *fresh = dt_require_grad(dt_from_inner(dev, next));
  dt_free(*param);
  *param = fresh;
  dt_free(next);
  dt_free(step);
  dt_free(plain);
  dt_free(g);
}

static float train_epoch(mlp *m, const dataset *d) {
  float total = 0;
  for (int b = 0; b < N_BATCHES; b++) {
    dt_tensor *x, *y;
    load_batch(d, b, m->dev, &x, &y);
    dt_tensor *p = mlp_forward(m->w1, m->b1, m->w2, m->b2, x);
    dt_tensor *loss = dt_mse_loss(p, y);
    dt_backward(loss);
    float l = 0;
    dt_read_floats(loss, &l, 1);
    total += l;
    dt_tensor **params[4] = {&m->w1, &m->b1, &m->w2, &m->b2};
    for (int i = 0; i < 4; i++) sgd_update(m->dev, params[i], 1.0f);
    dt_free(loss);
    dt_free(p);
    dt_free(y);
    dt_free(x);
  }
  return total / N_BATCHES;
}

static float evaluate(const mlp *m, const dataset *d) {
  dt_device plain = dt_inner_device(m->dev);
  dt_tensor *w1 = dt_inner(m->w1), *b1 = dt_inner(m->b1);
  dt_tensor *w2 = dt_inner(m->w2), *b2 = dt_inner(m->b2);
  float err = 0;
  for (int b = 0; b < N_BATCHES; b++) {
    dt_tensor *x, *y;
    load_batch(d, b, plain, &x, &y);
    dt_tensor *p = mlp_forward(w1, b1, w2, b2, x);
    dt_tensor *l = dt_mse_loss(p, y);
    float v = 0;
    dt_read_floats(l, &v, 1);
    err += v;
    dt_free(l);
    dt_free(p);
    dt_free(y);
    dt_free(x);
  }
  dt_free(w1);
  dt_free(b1);
  dt_free(w2);
  dt_free(b2);
  return err / N_BATCHES;
}

int main(void) {
  static dataset data;
  dataset_init(&data);
  mlp m;
  mlp_init(&m, dt_autodiff(dt_sim(0)));
  for (int e = 0; e < EPOCHS; e++) {
    float l = train_epoch(&m, &data);
    printf("epoch %d: train loss %f\n", e, (double)l);
  }
  printf("eval loss %f\n", (double)evaluate(&m, &data));
  dt_free(m.w1);
  dt_free(m.b1);
  dt_free(m.w2);
  dt_free(m.b2);
  return 0;
}
