/* Deep MLP classifier-style regressor trained with SGD + momentum on an accelerator
 * (autodiff<sim:N>).  The job is preempted at the end of the warm-up phase: the trainer writes
 * a host checkpoint (weights and momentum buffers), tears the model down and resumes from it.
 *
 *   usage: c02 [--gpu N] [--epochs E] [--layers L] [--warmup K]
 */
// run-args: --gpu 1 --epochs 6 --layers 4 --warmup 2
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 10
#define BATCH 8

typedef struct Blob {
  int rank;
  int64_t shape[2];
  float *data;
} Blob;

typedef struct Layer {
  dt_tensor *w, *b;         /* autodiff leaves */
  dt_tensor *vel_w, *vel_b; /* momentum buffers, plain, on the inner device */
} Layer;

typedef struct Net {
  Layer *layers;
  int n_layers;
  dt_device ad;
  float lr, mu;
} Net;

typedef struct Ckpt {
  Blob *w, *b, *vw, *vb;
  int n;
  int epoch;
} Ckpt;

typedef struct Opts {
  int gpu, epochs, layers, warmup;
} Opts;

static Opts parse_opts(int argc, char **argv) {
  Opts o = {0, 8, 3, 2};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--gpu") == 0) o.gpu = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--epochs") == 0) o.epochs = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--layers") == 0) o.layers = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--warmup") == 0) o.warmup = atoi(argv[i + 1]);
    else fprintf(stderr, "ignoring %s\n", argv[i]);
  }
  o.gpu = o.gpu == 1 ? 1 : 0; /* two simulated accelerators */
  if (o.layers < 2) o.layers = 2;
  if (o.warmup < 0) o.warmup = 0;
  return o;
}

static dt_tensor *leaf(dt_device ad, dt_tensor *plain) {
  dt_tensor *p = dt_require_grad(dt_from_inner(ad, plain));
  dt_free(plain);
  return p;
}

static void net_init(Net *net, int n_layers, dt_device accel) {
  const int64_t ws[2] = {WIDTH, WIDTH}, bs[1] = {WIDTH};
  net->n_layers = n_layers;
  net->ad = dt_autodiff(accel);
  net->lr = 0.05f;
  net->mu = 0.9f;
  net->layers = calloc((size_t)n_layers, sizeof(Layer));
  for (int i = 0; i < n_layers; i++) {
    dt_tensor *r = dt_randn(accel, 7u * (uint64_t)i + 1u, 2, ws);
    net->layers[i].w = leaf(net->ad, dt_mul_scalar(r, 0.3f));
    net->layers[i].b = leaf(net->ad, dt_zeros(accel, DT_FLOAT, 1, bs));
    net->layers[i].vel_w = dt_zeros(accel, DT_FLOAT, 2, ws);
    net->layers[i].vel_b = dt_zeros(accel, DT_FLOAT, 1, bs);
    dt_free(r);
  }
}

static void net_free(Net *net) {
  for (int i = 0; i < net->n_layers; i++) {
    dt_free(net->layers[i].w);
    dt_free(net->layers[i].b);
    dt_free(net->layers[i].vel_w);
    dt_free(net->layers[i].vel_b);
  }
  free(net->layers);
  net->layers = NULL;
}

static dt_tensor *net_forward(const Net *net, const dt_tensor *x) {
  dt_tensor *h = dt_mul_scalar(x, 1.0f);
  for (int i = 0; i < net->n_layers; i++) {
    dt_tensor *z = dt_matmul(h, net->layers[i].w);
    dt_tensor *a = dt_add(z, net->layers[i].b);
    dt_free(h);
    dt_free(z);
    h = (i + 1 == net->n_layers) ? a : dt_relu(a);
    if (h != a) dt_free(a);
  }
  return h;
}

/* v <- mu * v + g ;  p <- p - lr * v */
static void momentum_update(Net *net, dt_tensor **param, dt_tensor **vel) {
  dt_tensor *g = dt_grad(*param);
  if (!g) return;
  dt_tensor *vs = dt_mul_scalar(*vel, net->mu);
  dt_tensor *vn = dt_add(vs, g); // expect-error: backend-mismatch
  dt_tensor *step = dt_mul_scalar(vn, net->lr);
  dt_tensor *inner = dt_inner(*param);
  dt_tensor *np = dt_sub(inner, step);
  dt_free(*param);
  *param = leaf(net->ad, np);
  dt_free(*vel);
  *vel = vn;
  dt_free(g);
  dt_free(vs);
  dt_free(step);
  dt_free(inner);
}

static void sgd_step(Net *net) {
  for (int i = 0; i < net->n_layers; i++) {
    momentum_update(net, &net->layers[i].w, &net->layers[i].vel_w);
    momentum_update(net, &net->layers[i].b, &net->layers[i].vel_b);
  }
}

static void blob_save(Blob *bl, const dt_tensor *t) {
  bl->rank = dt_rank(t);
  for (int d = 0; d < bl->rank; d++) bl->shape[d] = dt_dim(t, d);
  int64_t n = dt_numel(t);
  bl->data = malloc(sizeof(float) * (size_t)n);
  dt_read_floats(t, bl->data, n);
}

/* Host staging: checkpoints are always materialised on the host first. */
static dt_tensor *blob_load(const Blob *bl) {
  return dt_from_floats(dt_cpu(), bl->data, bl->rank, bl->shape);
}

static void ckpt_save(Ckpt *ck, const Net *net, int epoch) {
  ck->n = net->n_layers;
  ck->epoch = epoch;
  ck->w = calloc((size_t)ck->n, sizeof(Blob));
  ck->b = calloc((size_t)ck->n, sizeof(Blob));
  ck->vw = calloc((size_t)ck->n, sizeof(Blob));
  ck->vb = calloc((size_t)ck->n, sizeof(Blob));
  for (int i = 0; i < ck->n; i++) {
    dt_tensor *wi = dt_inner(net->layers[i].w);
    dt_tensor *bi = dt_inner(net->layers[i].b);
    blob_save(&ck->w[i], wi);
    blob_save(&ck->b[i], bi);
    blob_save(&ck->vw[i], net->layers[i].vel_w);
    blob_save(&ck->vb[i], net->layers[i].vel_b);
    dt_free(wi);
    dt_free(bi);
  }
}

static void ckpt_free(Ckpt *ck) {
  for (int i = 0; i < ck->n; i++) {
    free(ck->w[i].data);
    free(ck->b[i].data);
    free(ck->vw[i].data);
    free(ck->vb[i].data);
  }
  free(ck->w);
  free(ck->b);
  free(ck->vw);
  free(ck->vb);
}

static dt_tensor *restore_param(const Net *net, const Blob *bl) {
  dt_tensor *host = blob_load(bl);
  dt_tensor *dev = dt_to_device(host, dt_inner_device(net->ad));
  dt_free(host);
  return leaf(net->ad, dev);
}

static void net_restore(Net *net, const Ckpt *ck, dt_device accel) {
  net->n_layers = ck->n;
  net->ad = dt_autodiff(accel);
  net->lr = 0.05f;
  net->mu = 0.9f;
  net->layers = calloc((size_t)ck->n, sizeof(Layer));
  for (int i = 0; i < ck->n; i++) {
    net->layers[i].w = restore_param(net, &ck->w[i]);
    net->layers[i].b = restore_param(net, &ck->b[i]);
    net->layers[i].vel_w = blob_load(&ck->vw[i]);
    net->layers[i].vel_b = blob_load(&ck->vb[i]);
  }
}

static void fill_batch(float *x, float *y, int step) {
  for (int i = 0; i < BATCH * WIDTH; i++) x[i] = cosf(0.05f * (float)(i + step * 31));
  for (int i = 0; i < BATCH * WIDTH; i++) y[i] = 0.5f * x[i] - 0.25f * x[(i + 1) % (BATCH * WIDTH)];
}

static float run_epoch(Net *net, int *step) {
  const int64_t s[2] = {BATCH, WIDTH};
  float xb[BATCH * WIDTH], yb[BATCH * WIDTH], total = 0.0f;
  for (int it = 0; it < 5; it++, (*step)++) {
    fill_batch(xb, yb, *step);
    dt_tensor *x = dt_from_floats(net->ad, xb, 2, s);
    dt_tensor *y = dt_from_floats(net->ad, yb, 2, s);
    dt_tensor *out = net_forward(net, x);
    dt_tensor *loss = dt_mse_loss(out, y);
    dt_tensor *li = dt_inner(loss);
    float lv = 0.0f;
    dt_read_floats(li, &lv, 1);
    total += lv;
    if (dt_backward(loss) != 0) {
      fprintf(stderr, "backward failed: %s\n", dt_last_error());
      exit(1);
    }
    sgd_step(net);
    dt_free(li);
    dt_free(loss);
    dt_free(out);
    dt_free(x);
    dt_free(y);
  }
  return total / 5.0f;
}

int main(int argc, char **argv) {
  Opts o = parse_opts(argc, argv);
  dt_device accel = dt_sim(o.gpu);
  Net net;
  net_init(&net, o.layers, accel);

  /* phase 1: warm-up */
  int step = 0, epoch = 1;
  for (; epoch <= o.warmup; epoch++) printf("epoch %d mean loss %.5f\n", epoch, run_epoch(&net, &step));

  /* the job is preempted at the end of warm-up: checkpoint, tear down, resume */
  Ckpt ck;
  ckpt_save(&ck, &net, epoch - 1);
  net_free(&net);
  net_restore(&net, &ck, accel);
  printf("resumed from checkpoint of epoch %d (%d layers)\n", ck.epoch, ck.n);
  ckpt_free(&ck);

  /* phase 2: the long run */
  for (; epoch <= o.epochs; epoch++) printf("epoch %d mean loss %.5f\n", epoch, run_epoch(&net, &step));
  net_free(&net);
  return 0;
}
