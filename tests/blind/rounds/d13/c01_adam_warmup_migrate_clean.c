/* Regressor trained with Adam: a short warm-up on autodiff<cpu>, then the whole training
 * state (parameters and both Adam moments) is migrated to the accelerator named on the
 * command line and training continues there.  At the end the weights are checkpointed to
 * host memory and reloaded into a plain inference copy for evaluation.
 *
 *   usage: c01 [EPOCHS] [DEVICE]      DEVICE: cpu | sim0 | sim1 | cuda (falls back to sim0)
 */
// run-args: 7 sim1
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_LAYERS 3
#define N_PARAMS (2 * N_LAYERS)
#define BATCH 16
#define IN_DIM 8
#define HID 12
#define OUT_DIM 2

typedef struct Layer {
  dt_tensor *w;
  dt_tensor *b;
  int64_t in, out;
} Layer;

typedef struct Model {
  Layer layers[N_LAYERS];
  dt_device dev; /* autodiff device the parameters live on */
} Model;

typedef struct Adam {
  dt_tensor *m[N_PARAMS];
  dt_tensor *v[N_PARAMS];
  float lr, b1, b2, eps;
  int t;
} Adam;

static dt_device device_from_name(const char *name) {
  if (!name || strcmp(name, "cpu") == 0) return dt_cpu();
  if (strcmp(name, "sim0") == 0) return dt_sim(0);
  if (strcmp(name, "sim1") == 0) return dt_sim(1);
  if (strcmp(name, "cuda") == 0) {
    if (dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
    fprintf(stderr, "cuda not available, using sim0\n");
    return dt_sim(0);
  }
  fprintf(stderr, "unknown device '%s', using cpu\n", name);
  return dt_cpu();
}

static dt_tensor **param_slot(Model *m, int i) {
  Layer *l = &m->layers[i / 2];
  return (i % 2 == 0) ? &l->w : &l->b;
}

static dt_tensor *new_param(dt_device ad, uint64_t seed, int rank, const int64_t *shape,
                            float scale) {
  dt_device inner = dt_inner_device(ad);
  dt_tensor *r = dt_randn(inner, seed, rank, shape);
  dt_tensor *s = dt_mul_scalar(r, scale);
  dt_tensor *p = dt_require_grad(dt_from_inner(ad, s));
  dt_free(r);
  dt_free(s);
  return p;
}

static void model_init(Model *m, dt_device ad) {
  const int64_t dims[N_LAYERS + 1] = {IN_DIM, HID, HID, OUT_DIM};
  m->dev = ad;
  for (int i = 0; i < N_LAYERS; i++) {
    Layer *l = &m->layers[i];
    l->in = dims[i];
    l->out = dims[i + 1];
    const int64_t ws[2] = {l->in, l->out};
    const int64_t bs[1] = {l->out};
    l->w = new_param(ad, 100u + (uint64_t)i, 2, ws, 1.0f / sqrtf((float)l->in));
    l->b = new_param(ad, 200u + (uint64_t)i, 1, bs, 0.01f);
  }
}

static dt_tensor *model_forward(const Model *m, const dt_tensor *x) {
  dt_tensor *h = dt_detach(x);
  for (int i = 0; i < N_LAYERS; i++) {
    const Layer *l = &m->layers[i];
    dt_tensor *z = dt_matmul(h, l->w);
    dt_tensor *a = dt_add(z, l->b);
    dt_free(z);
    dt_free(h);
    if (i + 1 < N_LAYERS) {
      h = dt_tanh(a);
      dt_free(a);
    } else {
      h = a;
    }
  }
  return h;
}

static void adam_init(Adam *opt, const Model *m, float lr) {
  dt_device inner = dt_inner_device(m->dev);
  opt->lr = lr;
  opt->b1 = 0.9f;
  opt->b2 = 0.999f;
  opt->eps = 1e-8f;
  opt->t = 0;
  for (int i = 0; i < N_PARAMS; i++) {
    const Layer *l = &m->layers[i / 2];
    const int64_t ws[2] = {l->in, l->out};
    const int64_t bs[1] = {l->out};
    int rank = (i % 2 == 0) ? 2 : 1;
    const int64_t *shape = (i % 2 == 0) ? ws : bs;
    opt->m[i] = dt_zeros(inner, DT_FLOAT, rank, shape);
    opt->v[i] = dt_zeros(inner, DT_FLOAT, rank, shape);
  }
}

static dt_tensor *soft_sqrt(const dt_tensor *v, float eps) {
  dt_tensor *shifted = dt_add_scalar(v, eps * eps);
  dt_tensor *lg = dt_log(shifted);
  dt_tensor *half = dt_mul_scalar(lg, 0.5f);
  dt_tensor *r = dt_exp(half);
  dt_free(shifted);
  dt_free(lg);
  dt_free(half);
  return r;
}

static void adam_step(Adam *opt, Model *m) {
  opt->t++;
  float c1 = 1.0f - powf(opt->b1, (float)opt->t);
  float c2 = 1.0f - powf(opt->b2, (float)opt->t);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor **slot = param_slot(m, i);
    dt_tensor *g = dt_grad(*slot);
    if (!g) continue;
    dt_tensor *m1 = dt_mul_scalar(opt->m[i], opt->b1);
    dt_tensor *m2 = dt_mul_scalar(g, 1.0f - opt->b1);
    dt_tensor *mn = dt_add(m1, m2);
    dt_tensor *gg = dt_mul(g, g);
    dt_tensor *v1 = dt_mul_scalar(opt->v[i], opt->b2);
    dt_tensor *v2 = dt_mul_scalar(gg, 1.0f - opt->b2);
    dt_tensor *vn = dt_add(v1, v2);
    dt_free(opt->m[i]);
    dt_free(opt->v[i]);
    opt->m[i] = mn;
    opt->v[i] = vn;

    dt_tensor *mhat = dt_mul_scalar(mn, 1.0f / c1);
    dt_tensor *vhat = dt_mul_scalar(vn, 1.0f / c2);
    dt_tensor *den = soft_sqrt(vhat, opt->eps);
    dt_tensor *ratio = dt_div(mhat, den);
    dt_tensor *upd = dt_mul_scalar(ratio, opt->lr);
    dt_tensor *inner = dt_inner(*slot);
    dt_tensor *nw = dt_sub(inner, upd);
    dt_free(*slot);
    *slot = dt_require_grad(dt_from_inner(m->dev, nw));
    dt_tensor *tmp[] = {g, m1, m2, gg, v1, v2, mhat, vhat, den, ratio, upd, inner, nw};
    for (size_t k = 0; k < sizeof tmp / sizeof tmp[0]; k++) dt_free(tmp[k]);
  }
}

/* Moves parameters and optimizer moments together: the parameters are re-made as fresh
   leaves on the new autodiff device, the moments are plain tensors on its inner device. */
static void migrate(Model *m, Adam *opt, dt_device target) {
  dt_device ad = dt_autodiff(target);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor **slot = param_slot(m, i);
    dt_tensor *inner = dt_inner(*slot);
    dt_tensor *moved = dt_to_device(inner, target);
    dt_free(*slot);
    dt_free(inner);
    *slot = dt_require_grad(dt_from_inner(ad, moved));
    dt_free(moved);

    dt_tensor *mm = dt_to_device(opt->m[i], target);
    dt_tensor *vv = dt_to_device(opt->v[i], target);
    dt_free(opt->m[i]);
    dt_free(opt->v[i]);
    opt->m[i] = mm;
    opt->v[i] = vv;
  }
  m->dev = ad;
}

static void make_batch(int step, float *x, float *y) {
  for (int r = 0; r < BATCH; r++) {
    float acc0 = 0.0f, acc1 = 0.0f;
    for (int c = 0; c < IN_DIM; c++) {
      float v = sinf(0.37f * (float)(step * BATCH + r) + 0.11f * (float)c);
      x[r * IN_DIM + c] = v;
      acc0 += v * (float)(c + 1) * 0.1f;
      acc1 += (c % 2 ? -v : v) * 0.2f;
    }
    y[r * OUT_DIM + 0] = tanhf(acc0);
    y[r * OUT_DIM + 1] = acc1;
  }
}

static float train_step(Model *m, Adam *opt, int step) {
  float xb[BATCH * IN_DIM], yb[BATCH * OUT_DIM];
  const int64_t xs[2] = {BATCH, IN_DIM}, ys[2] = {BATCH, OUT_DIM};
  make_batch(step, xb, yb);
  dt_tensor *x = dt_from_floats(m->dev, xb, 2, xs);
  dt_tensor *y = dt_from_floats(m->dev, yb, 2, ys);
  dt_tensor *pred = model_forward(m, x);
  dt_tensor *loss = dt_mse_loss(pred, y);
  float lv = 0.0f;
  dt_tensor *li = dt_inner(loss);
  dt_read_floats(li, &lv, 1);
  dt_backward(loss);
  adam_step(opt, m);
  dt_free(li);
  dt_free(loss);
  dt_free(pred);
  dt_free(x);
  dt_free(y);
  return lv;
}

typedef struct Checkpoint {
  float *data[N_PARAMS];
  int64_t numel[N_PARAMS];
} Checkpoint;

static void checkpoint_save(const Model *m, Checkpoint *ck) {
  Model *mm = (Model *)m;
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *inner = dt_inner(*param_slot(mm, i));
    ck->numel[i] = dt_numel(inner);
    ck->data[i] = malloc(sizeof(float) * (size_t)ck->numel[i]);
    dt_read_floats(inner, ck->data[i], ck->numel[i]);
    dt_free(inner);
  }
}

static float evaluate_plain(const Checkpoint *ck, dt_device dev) {
  const int64_t dims[N_LAYERS + 1] = {IN_DIM, HID, HID, OUT_DIM};
  dt_tensor *w[N_LAYERS], *b[N_LAYERS];
  for (int i = 0; i < N_LAYERS; i++) {
    const int64_t ws[2] = {dims[i], dims[i + 1]}, bs[1] = {dims[i + 1]};
    w[i] = dt_from_floats(dev, ck->data[2 * i], 2, ws);
    b[i] = dt_from_floats(dev, ck->data[2 * i + 1], 1, bs);
  }
  float xb[BATCH * IN_DIM], yb[BATCH * OUT_DIM], total = 0.0f;
  const int64_t xs[2] = {BATCH, IN_DIM}, ys[2] = {BATCH, OUT_DIM};
  for (int k = 0; k < 4; k++) {
    make_batch(1000 + k, xb, yb);
    dt_tensor *h = dt_from_floats(dev, xb, 2, xs);
    dt_tensor *y = dt_from_floats(dev, yb, 2, ys);
    for (int i = 0; i < N_LAYERS; i++) {
      dt_tensor *z = dt_matmul(h, w[i]);
      dt_tensor *a = dt_add(z, b[i]);
      dt_free(z);
      dt_free(h);
      h = (i + 1 < N_LAYERS) ? dt_tanh(a) : dt_detach(a);
      dt_free(a);
    }
    dt_tensor *l = dt_mse_loss(h, y);
    float lv = 0.0f;
    dt_read_floats(l, &lv, 1);
    total += lv;
    dt_free(l);
    dt_free(h);
    dt_free(y);
  }
  for (int i = 0; i < N_LAYERS; i++) {
    dt_free(w[i]);
    dt_free(b[i]);
  }
  return total / 4.0f;
}

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 5;
  dt_device target = device_from_name(argc > 2 ? argv[2] : getenv("TRAIN_DEVICE"));
  int warmup = 2, steps_per_epoch = 6;
  if (epochs < 1) epochs = 1;

  Model model;
  Adam opt;
  model_init(&model, dt_autodiff(dt_cpu()));
  adam_init(&opt, &model, 0.01f);

  for (int epoch = 0; epoch < epochs; epoch++) {
    if (epoch == warmup) {
      char name[32];
      dt_device_name(target, name, sizeof name);
      printf("migrating to %s after %d warm-up epochs\n", name, warmup);
      migrate(&model, &opt, target);
    }
    float sum = 0.0f;
    for (int s = 0; s < steps_per_epoch; s++) sum += train_step(&model, &opt, epoch * 100 + s);
    printf("epoch %d loss %.4f\n", epoch, sum / (float)steps_per_epoch);
  }

  Checkpoint ck;
  checkpoint_save(&model, &ck);
  printf("eval on cpu: %.4f\n", evaluate_plain(&ck, dt_cpu()));
  printf("eval on train device: %.4f\n", evaluate_plain(&ck, dt_inner_device(model.dev)));

  for (int i = 0; i < N_PARAMS; i++) {
    free(ck.data[i]);
    dt_free(*param_slot(&model, i));
    dt_free(opt.m[i]);
    dt_free(opt.v[i]);
  }
  return 0;
}
