// provenance: blind round d16
// c02: a four-layer model split over a two-stage pipeline (layers 0-1 on autodiff<sim:0>,
// layers 2-3 on autodiff<sim:1>), trained with micro-batches and gradient accumulation.
// Activations cross the stage boundary inside the layer loop, on whichever iteration reaches
// it; targets are built on the host and uploaded to the last stage by one of two routes.
// Every operation's operands are on one device.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_LAYERS 4
#define N_STAGES 2
#define WIDTH 8
#define MB 4
#define N_MICRO 3

typedef struct layer {
  dt_tensor *w;
  dt_tensor *b;
  int stage;
} layer;

typedef struct pipeline {
  dt_device stage_dev[N_STAGES];
  layer layers[N_LAYERS];
  dt_tensor *acc_w[N_LAYERS];
  dt_tensor *acc_b[N_LAYERS];
  float lr;
} pipeline;

static int stage_of(int layer_index) { return layer_index < N_LAYERS / 2 ? 0 : 1; }

static dt_device layer_device(const pipeline *p, int i) { return p->stage_dev[p->layers[i].stage]; }

static void pipeline_init(pipeline *p) {
  p->stage_dev[0] = dt_autodiff(dt_sim(0));
  p->stage_dev[1] = dt_autodiff(dt_sim(1));
  p->lr = 0.05f;
  for (int i = 0; i < N_LAYERS; i++) {
    layer *l = &p->layers[i];
    l->stage = stage_of(i);
    dt_device d = p->stage_dev[l->stage];
    dt_tensor *w = dt_randn(d, 100u + (uint64_t)i, 2, (const int64_t[]){WIDTH, WIDTH});
    l->w = dt_require_grad(dt_mul_scalar(w, 0.3f));
    dt_free(w);
    l->b = dt_require_grad(dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){WIDTH}));
    p->acc_w[i] = NULL;
    p->acc_b[i] = NULL;
  }
}

static void zero_accumulators(pipeline *p) {
  for (int i = 0; i < N_LAYERS; i++) {
    dt_device inner = dt_inner_device(layer_device(p, i));
    dt_free(p->acc_w[i]);
    dt_free(p->acc_b[i]);
    p->acc_w[i] = dt_zeros(inner, DT_FLOAT, 2, (const int64_t[]){WIDTH, WIDTH});
    p->acc_b[i] = dt_zeros(inner, DT_FLOAT, 1, (const int64_t[]){WIDTH});
  }
}

/* Runs the layers in order; the activation follows the layers across the stage boundary. */
static dt_tensor *pipeline_forward(const pipeline *p, dt_tensor *x) {
  int cur = 0;
  dt_tensor *act = dt_to_device(x, p->stage_dev[0]);
  for (int i = 0; i < N_LAYERS; i++) {
    const layer *l = &p->layers[i];
    if (l->stage != cur) {
      dt_tensor *moved = dt_to_device(act, p->stage_dev[l->stage]);
      dt_free(act);
      act = moved;
      cur = l->stage;
    }
    dt_tensor *h = dt_matmul(act, l->w);
    dt_tensor *hb = dt_add(h, l->b);
    dt_free(h);
    dt_free(act);
    if (i + 1 == N_LAYERS) {
      act = hb; /* the last layer is linear */
    } else {
      act = dt_relu(hb);
      dt_free(hb);
    }
  }
  return act;
}

/* Targets are made on the host. Even micro-batches go host -> sim:1 and are wrapped there;
   odd ones are wrapped on the host first and moved as autodiff tensors. Both end on the
   last stage's device. */
static dt_tensor *upload_target(const pipeline *p, const float *host, int micro) {
  const int64_t shape[2] = {MB, WIDTH};
  dt_device last = p->stage_dev[N_STAGES - 1];
  if (micro % 2 == 0) {
    dt_tensor *h = dt_from_floats(dt_cpu(), host, 2, shape);
    dt_tensor *d = dt_to_device(h, dt_inner_device(last));
    dt_free(h);
    return dt_from_inner(last, d);
  }
  dt_tensor *h = dt_from_floats(dt_cpu(), host, 2, shape);
  dt_tensor *ad = dt_from_inner(dt_autodiff(dt_cpu()), h);
  dt_tensor *moved = dt_to_device(ad, last);
  dt_free(ad);
  return moved;
}

static void accumulate(pipeline *p) {
  for (int i = 0; i < N_LAYERS; i++) {
    dt_tensor *gw = dt_grad(p->layers[i].w);
    dt_tensor *gb = dt_grad(p->layers[i].b);
    if (gw) {
      dt_tensor *s = dt_add(p->acc_w[i], gw);
      dt_free(p->acc_w[i]);
      p->acc_w[i] = s;
      dt_free(gw);
    }
    if (gb) {
      dt_tensor *s = dt_add(p->acc_b[i], gb);
      dt_free(p->acc_b[i]);
      p->acc_b[i] = s;
      dt_free(gb);
    }
  }
}

static dt_tensor *sgd_update(dt_tensor *param, const dt_tensor *acc, float scale, dt_device ad) {
  dt_tensor *inner = dt_inner(param);
  dt_tensor *step = dt_mul_scalar(acc, scale);
  dt_tensor *next = dt_sub(inner, step);
  dt_free(inner);
  dt_free(step);
  dt_free(param);
  return dt_require_grad(dt_from_inner(ad, next));
}

static void apply_updates(pipeline *p) {
  float scale = p->lr / (float)N_MICRO;
  for (int i = 0; i < N_LAYERS; i++) {
    dt_device ad = layer_device(p, i);
    p->layers[i].w = sgd_update(p->layers[i].w, p->acc_w[i], scale, ad);
    p->layers[i].b = sgd_update(p->layers[i].b, p->acc_b[i], scale, ad);
  }
}

static void make_micro(int step, int micro, float *x, float *y) {
  for (int r = 0; r < MB; r++)
    for (int c = 0; c < WIDTH; c++) {
      float v = (float)((step * 7 + micro * 5 + r * 3 + c) % 11) / 11.0f - 0.5f;
      x[r * WIDTH + c] = v;
      y[r * WIDTH + c] = 0.5f * v;
    }
}

static float host_loss(const dt_tensor *loss) {
  dt_tensor *d = dt_detach(loss);
  float v = 0.0f;
  if (dt_read_floats(d, &v, 1) != 0)
    v = -1.0f;
  dt_free(d);
  return v;
}

static float evaluate(const pipeline *p) {
  float xs[MB * WIDTH], ys[MB * WIDTH];
  make_micro(99, 0, xs, ys);
  dt_tensor *xh = dt_from_floats(dt_inner_device(p->stage_dev[0]), xs, 2, (const int64_t[]){MB, WIDTH});
  dt_tensor *x = dt_from_inner(p->stage_dev[0], xh);
  dt_tensor *pred = pipeline_forward(p, x);
  dt_tensor *t = upload_target(p, ys, 0);
  dt_tensor *loss = dt_mse_loss(pred, t);
  float v = host_loss(loss);
  dt_free(x);
  dt_free(pred);
  dt_free(t);
  dt_free(loss);
  return v;
}

static void pipeline_free(pipeline *p) {
  for (int i = 0; i < N_LAYERS; i++) {
    dt_free(p->layers[i].w);
    dt_free(p->layers[i].b);
    dt_free(p->acc_w[i]);
    dt_free(p->acc_b[i]);
  }
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  if (steps < 1 || steps > 50)
    steps = 4;
  pipeline p;
  memset(&p, 0, sizeof p);
  pipeline_init(&p);
  float before = evaluate(&p);
  for (int s = 0; s < steps; s++) {
    zero_accumulators(&p);
    for (int m = 0; m < N_MICRO; m++) {
      float xs[MB * WIDTH], ys[MB * WIDTH];
      make_micro(s, m, xs, ys);
      dt_tensor *xh = dt_from_floats(dt_cpu(), xs, 2, (const int64_t[]){MB, WIDTH});
      dt_tensor *x = dt_from_inner(dt_autodiff(dt_cpu()), xh);
      dt_tensor *pred = pipeline_forward(&p, x);
      dt_tensor *t = upload_target(&p, ys, m);
      dt_tensor *loss = dt_mse_loss(pred, t);
      dt_backward(loss);
      accumulate(&p);
      dt_free(x);
      dt_free(pred);
      dt_free(t);
      dt_free(loss);
    }
    apply_updates(&p);
  }
  float after = evaluate(&p);
  printf("eval loss %.5f -> %.5f\n", before, after);
  pipeline_free(&p);
  return 0;
}
