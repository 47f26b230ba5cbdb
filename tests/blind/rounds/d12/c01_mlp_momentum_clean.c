// provenance: blind round d12
// run-args: sim1
/* Two-layer MLP regression trained with SGD + momentum on a device picked from argv[1]
 * ("cpu", "sim0", "sim1"). Momentum buffers live on the inner (plain) device, parameters
 * are autodiff leaves re-wrapped after every step. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define N_LAYERS 2
#define BATCH 16
#define IN_DIM 8
#define HID 12
#define OUT_DIM 1

typedef struct {
  dt_tensor *w, *b;      /* autodiff leaves */
  dt_tensor *vw, *vb;    /* momentum, plain on inner device */
  int64_t in, out;
} layer_t;

typedef struct {
  dt_device dev;         /* autodiff device */
  dt_device inner;
  layer_t layers[N_LAYERS];
  float lr, momentum;
} mlp_t;

static dt_device parse_device(const char *s) {
  if (!s) return dt_cpu();
  if (strcmp(s, "sim0") == 0) return dt_sim(0);
  if (strcmp(s, "sim1") == 0) return dt_sim(1);
  return dt_cpu();
}

static void layer_init(layer_t *l, dt_device ad, int64_t in, int64_t out, uint64_t seed) {
  int64_t ws[2] = {in, out};
  int64_t bs[1] = {out};
  dt_device inner = dt_inner_device(ad);
  dt_tensor *w0 = dt_randn(inner, seed, 2, ws);
  dt_tensor *ws_scaled = dt_mul_scalar(w0, 1.0f / sqrtf((float)in));
  l->w = dt_require_grad(dt_from_inner(ad, ws_scaled));
  l->b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, bs));
  l->vw = dt_zeros(inner, DT_FLOAT, 2, ws);
  l->vb = dt_zeros(inner, DT_FLOAT, 1, bs);
  l->in = in;
  l->out = out;
  dt_free(w0);
  dt_free(ws_scaled);
}

static void mlp_init(mlp_t *m, dt_device base) {
  m->dev = dt_autodiff(base);
  m->inner = base;
  m->lr = 0.05f;
  m->momentum = 0.9f;
  layer_init(&m->layers[0], m->dev, IN_DIM, HID, 11);
  layer_init(&m->layers[1], m->dev, HID, OUT_DIM, 12);
}

static dt_tensor *mlp_forward(mlp_t *m, const dt_tensor *x) {
  dt_tensor *h = NULL;
  const dt_tensor *cur = x;
  for (int i = 0; i < N_LAYERS; i++) {
    layer_t *l = &m->layers[i];
    dt_tensor *z = dt_matmul(cur, l->w);
    dt_tensor *zb = dt_add(z, l->b);
    dt_free(z);
    if (i + 1 < N_LAYERS) {
      dt_tensor *a = dt_tanh(zb);
      dt_free(zb);
      zb = a;
    }
    if (h) dt_free(h);
    h = zb;
    cur = h;
  }
  return h;
}

static dt_tensor *momentum_update(dt_tensor **param, dt_tensor **vel, dt_device ad, float lr,
                                  float mu) {
  dt_tensor *g = dt_grad(*param);
  if (!g) return *param;
  dt_tensor *v_scaled = dt_mul_scalar(*vel, mu);
  dt_tensor *v_new = dt_add(v_scaled, g);
  dt_tensor *step = dt_mul_scalar(v_new, lr);
  dt_tensor *w_in = dt_inner(*param);
  dt_tensor *w_new = dt_sub(w_in, step);
  dt_free(*vel);
  *vel = v_new;
  dt_free(v_scaled);
  dt_free(step);
  dt_free(w_in);
  dt_free(g);
  dt_free(*param);
  *param = dt_require_grad(dt_from_inner(ad, w_new));
  dt_free(w_new);
  return *param;
}

static void mlp_step(mlp_t *m) {
  for (int i = 0; i < N_LAYERS; i++) {
    layer_t *l = &m->layers[i];
    momentum_update(&l->w, &l->vw, m->dev, m->lr, m->momentum);
    momentum_update(&l->b, &l->vb, m->dev, m->lr, m->momentum);
  }
}

static void make_batch(float *x, float *y, unsigned *state) {
  for (int i = 0; i < BATCH; i++) {
    float acc = 0.0f;
    for (int j = 0; j < IN_DIM; j++) {
      *state = *state * 1664525u + 1013904223u;
      float v = ((float)(*state >> 8) / 16777216.0f) * 2.0f - 1.0f;
      x[i * IN_DIM + j] = v;
      acc += v * (j % 2 ? 0.5f : -0.25f);
    }
    y[i] = tanhf(acc);
  }
}

static float eval_plain(mlp_t *m, const float *x, const float *y) {
  /* evaluation without the graph: plain inner tensors */
  int64_t xs[2] = {BATCH, IN_DIM};
  int64_t ys[2] = {BATCH, OUT_DIM};
  dt_tensor *xt = dt_from_floats(m->inner, x, 2, xs);
  dt_tensor *yt = dt_from_floats(m->inner, y, 2, ys);
  dt_tensor *w0 = dt_inner(m->layers[0].w);
  dt_tensor *b0 = dt_inner(m->layers[0].b);
  dt_tensor *w1 = dt_inner(m->layers[1].w);
  dt_tensor *b1 = dt_inner(m->layers[1].b);
  dt_tensor *h = dt_matmul(xt, w0);
  dt_tensor *hb = dt_add(h, b0);
  dt_tensor *ha = dt_tanh(hb);
  dt_tensor *o = dt_matmul(ha, w1);
  dt_tensor *ob = dt_add(o, b1);
  dt_tensor *loss = dt_mse_loss(ob, yt);
  float v = 0.0f;
  dt_read_floats(loss, &v, 1);
  dt_tensor *all[] = {xt, yt, w0, b0, w1, b1, h, hb, ha, o, ob, loss};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return v;
}

static void mlp_free(mlp_t *m) {
  for (int i = 0; i < N_LAYERS; i++) {
    dt_free(m->layers[i].w);
    dt_free(m->layers[i].b);
    dt_free(m->layers[i].vw);
    dt_free(m->layers[i].vb);
  }
}

int main(int argc, char **argv) {
  dt_device base = parse_device(argc > 1 ? argv[1] : getenv("MLP_DEVICE"));
  char name[32];
  dt_device_name(base, name, sizeof name);
  mlp_t model;
  mlp_init(&model, base);
  printf("training on %s\n", name);

  float x[BATCH * IN_DIM], y[BATCH];
  unsigned state = 7u;
  int64_t xs[2] = {BATCH, IN_DIM};
  int64_t ys[2] = {BATCH, OUT_DIM};
  float first = -1.0f, last = 0.0f;
  for (int epoch = 0; epoch < 30; epoch++) {
    make_batch(x, y, &state);
    dt_tensor *xt = dt_from_floats(model.dev, x, 2, xs);
    dt_tensor *yt = dt_from_floats(model.dev, y, 2, ys);
    dt_tensor *pred = mlp_forward(&model, xt);
    dt_tensor *loss = dt_mse_loss(pred, yt);
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    if (first < 0.0f) first = lv;
    last = lv;
    if (dt_backward(loss) != 0) {
      fprintf(stderr, "backward failed: %s\n", dt_last_error());
      return 1;
    }
    mlp_step(&model);
    dt_free(xt);
    dt_free(yt);
    dt_free(pred);
    dt_free(loss);
  }
  make_batch(x, y, &state);
  float ev = eval_plain(&model, x, y);
  printf("loss %.4f -> %.4f, eval %.4f\n", first, last, ev);
  mlp_free(&model);
  return 0;
}
