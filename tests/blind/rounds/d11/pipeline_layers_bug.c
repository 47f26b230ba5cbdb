// provenance: blind round d11
// Pipeline-parallel MLP: the first half of the layers lives on sim:0, the second half on
// sim:1; activations hop devices at the stage boundary. Trained with autodiff + SGD.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_LAYERS 6
#define WIDTH 8
#define MICRO 4
#define MB_ROWS 5

typedef struct {
  dt_device dev;   /* autodiff<sim:k> */
  dt_tensor *w;
  dt_tensor *b;
  int activation;  /* 1: relu, 0: identity */
} layer;

typedef struct {
  int n_layers;
  int split;       /* first layer index of stage 1 */
  layer layers[N_LAYERS];
  dt_device stage_dev[2];
} pipeline;

typedef struct {
  int epochs;
  float lr;
  int log_every;
} run_cfg;

static void layer_init(layer *l, dt_device dev, uint64_t seed, int act) {
  int64_t ws[2] = {WIDTH, WIDTH}, bs[2] = {1, WIDTH};
  dt_device inner = dt_inner_device(dev);
  dt_tensor *r = dt_randn(inner, seed, 2, ws);
  dt_tensor *s = dt_mul_scalar(r, 0.3f);
  l->dev = dev;
  l->w = dt_require_grad(dt_from_inner(dev, s));
  l->b = dt_require_grad(dt_zeros(dev, DT_FLOAT, 2, bs));
  l->activation = act;
  dt_free(r); dt_free(s);
}

static void pipeline_init(pipeline *p) {
  p->n_layers = N_LAYERS;
  p->split = N_LAYERS / 2;
  p->stage_dev[0] = dt_autodiff(dt_sim(0));
  p->stage_dev[1] = dt_autodiff(dt_sim(1));
  for (int i = 0; i < p->n_layers; i++) {
    int stage = i > p->split ? 1 : 0;
    layer_init(&p->layers[i], p->stage_dev[stage], 100 + (uint64_t)i, i + 1 < p->n_layers);
  }
}

static dt_tensor *layer_forward(const layer *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w); // expect-error: device-mismatch
  dt_tensor *hb = dt_add(h, l->b);
  dt_free(h);
  if (!l->activation) return hb;
  dt_tensor *a = dt_relu(hb);
  dt_free(hb);
  return a;
}

/* runs one micro-batch through both stages; the input lives on stage 0 */
static dt_tensor *pipeline_forward(const pipeline *p, const dt_tensor *x0) {
  dt_tensor *act = dt_to_device(x0, p->stage_dev[0]);
  for (int i = 0; i < p->n_layers; i++) {
    if (i == p->split) {
      dt_tensor *moved = dt_to_device(act, p->stage_dev[1]);
      dt_free(act);
      act = moved;
    }
    dt_tensor *next = layer_forward(&p->layers[i], act);
    dt_free(act);
    act = next;
  }
  return act;
}

static void sgd_layer(layer *l, float lr) {
  dt_tensor **slots[2] = {&l->w, &l->b};
  for (int k = 0; k < 2; k++) {
    dt_tensor *g = dt_grad(*slots[k]);
    if (!g) continue;
    dt_tensor *in = dt_inner(*slots[k]);
    dt_tensor *st = dt_mul_scalar(g, lr);
    dt_tensor *nx = dt_sub(in, st);
    dt_free(*slots[k]);
    *slots[k] = dt_require_grad(dt_from_inner(l->dev, nx));
    dt_free(g); dt_free(in); dt_free(st); dt_free(nx);
  }
}

static void fill_micro(float *x, float *y, int mb, int epoch) {
  for (int r = 0; r < MB_ROWS; r++)
    for (int c = 0; c < WIDTH; c++) {
      float v = (float)(((r + 1) * (c + 2) + mb * 3 + epoch) % 11) / 11.0f - 0.5f;
      x[r * WIDTH + c] = v;
      y[r * WIDTH + c] = 0.5f * v + (c % 2 ? 0.1f : -0.1f);
    }
}

static float host_scalar(const dt_tensor *t) {
  float v = 0.0f;
  dt_tensor *in = dt_inner(t);
  dt_read_floats(in, &v, 1);
  dt_free(in);
  return v;
}

static void pipeline_free(pipeline *p) {
  for (int i = 0; i < p->n_layers; i++) { dt_free(p->layers[i].w); dt_free(p->layers[i].b); }
}

int main(int argc, char **argv) {
  run_cfg cfg = {.epochs = 3, .lr = 0.02f, .log_every = 1};
  for (int i = 1; i < argc; i++) {
    if (!strncmp(argv[i], "--epochs=", 9)) cfg.epochs = atoi(argv[i] + 9);
    if (!strncmp(argv[i], "--lr=", 5)) cfg.lr = (float)atof(argv[i] + 5);
  }
  if (cfg.epochs < 1) cfg.epochs = 1;

  pipeline pipe;
  pipeline_init(&pipe);
  dt_device host = dt_autodiff(dt_cpu());
  int64_t shape[2] = {MB_ROWS, WIDTH};
  float xb[MB_ROWS * WIDTH], yb[MB_ROWS * WIDTH];

  for (int e = 0; e < cfg.epochs; e++) {
    float total = 0.0f;
    for (int mb = 0; mb < MICRO; mb++) {
      fill_micro(xb, yb, mb, e);
      dt_tensor *x = dt_from_floats(host, xb, 2, shape);
      dt_tensor *y = dt_from_floats(host, yb, 2, shape);
      dt_tensor *out = pipeline_forward(&pipe, x);
      dt_tensor *yt = dt_to_device(y, dt_device_of(out));
      dt_tensor *loss = dt_mse_loss(out, yt);
      dt_backward(loss);
      total += host_scalar(loss);
      for (int i = 0; i < pipe.n_layers; i++) sgd_layer(&pipe.layers[i], cfg.lr);
      dt_free(loss); dt_free(yt); dt_free(out); dt_free(x); dt_free(y);
    }
    if (e % cfg.log_every == 0) printf("epoch %d loss %.5f\n", e, total / MICRO);
  }
  pipeline_free(&pipe);
  return 0;
}
