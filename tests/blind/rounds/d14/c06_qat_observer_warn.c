// Quantization-aware training (simulated): a 2-layer classifier on autodiff<sim:0>; observers
// calibrate weight ranges (per tensor on the host, or per channel on --observer-device), then
// fake quantization with a straight-through estimator is switched on at --qat-start.
// run-args: --per-channel --observer-device sim1 --epochs 4
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 6
#define HID 8
#define OUT 3
#define BATCH 5
#define NL 2

typedef struct Observer {
  int per_channel;
  float absmax;      /* per tensor, host */
  dt_tensor *chan;   /* per channel [1, cols], plain, on the observer device */
  dt_device dev;
} Observer;

typedef struct Layer {
  dt_tensor *w; /* plain on the training inner device */
  Observer obs;
} Layer;

typedef struct Opts {
  int epochs, qat_start, per_channel;
  dt_device observer_dev;
  float lr;
} Opts;

static Opts parse(int argc, char **argv) {
  Opts o = {3, 1, 0, dt_sim(0), 0.05f};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--epochs") && i + 1 < argc) o.epochs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--qat-start") && i + 1 < argc) o.qat_start = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--per-channel")) o.per_channel = 1;
    else if (!strcmp(argv[i], "--observer-device") && i + 1 < argc)
      o.observer_dev = !strcmp(argv[++i], "sim1") ? dt_sim(1) : dt_sim(0);
  }
  return o;
}

static dt_tensor *sqrt_t(dt_tensor *x) {
  dt_tensor *l = dt_log(dt_add_scalar(x, 1e-10f));
  dt_tensor *r = dt_exp(dt_mul_scalar(l, 0.5f));
  dt_free(l);
  return r;
}

static void observe(Observer *ob, dt_tensor *w_inner) {
  if (!ob->per_channel) {
    float host[HID * HID];
    int64_t n = dt_numel(w_inner);
    dt_read_floats(w_inner, host, n);
    for (int64_t i = 0; i < n; i++) {
      float a = fabsf(host[i]);
      if (a > ob->absmax) ob->absmax = a;
    }
    return;
  }
  int64_t cs[2] = {1, dt_dim(w_inner, 1)};
  dt_tensor *local = dt_to_device(w_inner, ob->dev);
  dt_tensor *rms = dt_reshape(sqrt_t(dt_mul_scalar(dt_sum_dim(dt_mul(local, local), 0), 1.0f / (float)dt_dim(local, 0))), 2, cs);
  dt_tensor *upd = ob->chan ? dt_add(dt_mul_scalar(ob->chan, 0.8f), dt_mul_scalar(rms, 0.6f)) : dt_mul_scalar(rms, 2.0f);
  dt_free(ob->chan); dt_free(local); dt_free(rms);
  ob->chan = upd;
}

/* plain fake-quantized copy of w: scale * tanh(w / scale), 127 levels of the observed range */
static dt_tensor *fake_quant(const Observer *ob, dt_tensor *w_inner) {
  if (!ob->per_channel) {
    float s = ob->absmax > 0.0f ? ob->absmax : 1.0f;
    dt_tensor *u = dt_tanh(dt_mul_scalar(w_inner, 1.0f / s));
    dt_tensor *q = dt_mul_scalar(u, s);
    dt_free(u);
    return q;
  }
  dt_tensor *scale = dt_add_scalar(ob->chan, 1e-6f);
  dt_tensor *u = dt_tanh(dt_div(w_inner, scale)); // expect-warning: device-mismatch
  dt_tensor *q = dt_mul(u, scale);
  dt_free(scale); dt_free(u);
  return q;
}

/* straight-through estimator: forward sees q, backward sees the identity */
static dt_tensor *ste(dt_device ad, dt_tensor *w_tracked, const Observer *ob) {
  dt_tensor *inner = dt_inner(w_tracked);
  dt_tensor *q = fake_quant(ob, inner);
  dt_tensor *delta = dt_from_inner(ad, dt_sub(q, inner));
  dt_tensor *out = dt_add(w_tracked, delta);
  dt_free(inner); dt_free(q); dt_free(delta);
  return out;
}

static void batch(int e, int b, float *x, float *y) {
  for (int r = 0; r < BATCH; r++) {
    int cls = (r + b + e) % OUT;
    for (int c = 0; c < IN; c++) x[r * IN + c] = (c % OUT == cls ? 1.0f : 0.0f) + 0.05f * (float)((r * c + b) % 3);
    for (int k = 0; k < OUT; k++) y[r * OUT + k] = k == cls ? 1.0f : 0.0f;
  }
}

static float run_epoch(Layer *layers, dt_device ad, const Opts *o, int epoch) {
  int64_t xs[2] = {BATCH, IN}, ys[2] = {BATCH, OUT};
  int quant = epoch >= o->qat_start;
  float total = 0.0f;
  for (int b = 0; b < 3; b++) {
    float xh[BATCH * IN], yh[BATCH * OUT];
    batch(epoch, b, xh, yh);
    dt_tensor *tw[NL], *h = dt_from_floats(ad, xh, 2, xs);
    for (int l = 0; l < NL; l++) {
      tw[l] = dt_require_grad(dt_from_inner(ad, layers[l].w));
      dt_tensor *w_eff = quant ? ste(ad, tw[l], &layers[l].obs) : dt_mul_scalar(tw[l], 1.0f);
      dt_tensor *z = dt_matmul(h, w_eff);
      dt_tensor *a = l + 1 < NL ? dt_relu(z) : dt_sigmoid(z);
      dt_free(h); dt_free(z); dt_free(w_eff);
      h = a;
    }
    dt_tensor *loss = dt_mse_loss(h, dt_from_floats(ad, yh, 2, ys));
    float lv = 0.0f;
    dt_read_floats(loss, &lv, 1);
    total += lv;
    dt_backward(loss);
    for (int l = 0; l < NL; l++) {
      dt_tensor *g = dt_grad(tw[l]);
      dt_tensor *nw = dt_sub(layers[l].w, dt_mul_scalar(g, o->lr));
      dt_free(layers[l].w); dt_free(g); dt_free(tw[l]);
      layers[l].w = nw;
      if (!quant || epoch == o->qat_start) observe(&layers[l].obs, layers[l].w);
    }
    dt_free(h); dt_free(loss);
  }
  return total / 3.0f;
}

int main(int argc, char **argv) {
  Opts o = parse(argc, argv);
  dt_device ad = dt_autodiff(dt_sim(0));
  Layer layers[NL];
  int64_t shapes[NL][2] = {{IN, HID}, {HID, OUT}};
  for (int l = 0; l < NL; l++) {
    layers[l].w = dt_mul_scalar(dt_randn(dt_inner_device(ad), 20 + (uint64_t)l, 2, shapes[l]), 0.4f);
    layers[l].obs.per_channel = o.per_channel;
    layers[l].obs.absmax = 0.0f;
    layers[l].obs.chan = NULL;
    layers[l].obs.dev = o.observer_dev;
    observe(&layers[l].obs, layers[l].w);
  }
  for (int e = 0; e < o.epochs; e++) printf("epoch %d%s loss %.4f\n", e, e >= o.qat_start ? " (qat)" : "", run_epoch(layers, ad, &o, e));
  for (int l = 0; l < NL; l++) { dt_free(layers[l].w); dt_free(layers[l].obs.chan); }
  return 0;
}
