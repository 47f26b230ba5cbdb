// provenance: blind round d16
// c04: an MLP trained on autodiff<sim:0> with an in-memory "best so far" checkpoint that
// records, for every parameter, its shape, its values and the device it came from. After
// training the best checkpoint is restored for the final evaluation, and the restore
// re-wraps what it re-creates on the recorded device.
#include <dt/dt.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_PARAMS 6
#define MAX_ELEMS 256
#define BATCH 6
#define D_IN 5
#define D_H 8
#define D_OUT 2

typedef struct model {
  dt_device dev;
  dt_tensor *p[N_PARAMS]; /* w1 b1 w2 b2 w3 b3 */
  const char *names[N_PARAMS];
} model;

typedef struct ckpt_entry {
  char name[16];
  int rank;
  int64_t shape[2];
  float data[MAX_ELEMS];
  dt_device device;
} ckpt_entry;

typedef struct checkpoint {
  ckpt_entry e[N_PARAMS];
  int step;
  float loss;
  int valid;
} checkpoint;

static const int64_t SHAPES[N_PARAMS][2] = {
    {D_IN, D_H}, {D_H, 0}, {D_H, D_H}, {D_H, 0}, {D_H, D_OUT}, {D_OUT, 0}};

static void model_init(model *m, dt_device dev) {
  static const char *names[N_PARAMS] = {"w1", "b1", "w2", "b2", "w3", "b3"};
  m->dev = dev;
  for (int i = 0; i < N_PARAMS; i++) {
    int rank = SHAPES[i][1] ? 2 : 1;
    m->names[i] = names[i];
    dt_tensor *t = rank == 2 ? dt_randn(dev, 500u + (uint64_t)i, 2, SHAPES[i])
                             : dt_zeros(dev, DT_FLOAT, 1, SHAPES[i]);
    m->p[i] = dt_require_grad(dt_mul_scalar(t, 0.4f));
    dt_free(t);
  }
}

static void model_free(model *m) {
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(m->p[i]);
    m->p[i] = NULL;
  }
}

static dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_add_scalar(x, 0.0f);
  for (int l = 0; l < N_PARAMS / 2; l++) {
    dt_tensor *z = dt_matmul(h, m->p[2 * l]);
    dt_tensor *zb = dt_add(z, m->p[2 * l + 1]);
    dt_free(z);
    dt_free(h);
    if (l + 1 < N_PARAMS / 2) {
      h = dt_sigmoid(zb);
      dt_free(zb);
    } else {
      h = zb;
    }
  }
  return h;
}

/* ---- checkpoints ---- */

static int ckpt_save(checkpoint *ck, const model *m, int step, float loss) {
  for (int i = 0; i < N_PARAMS; i++) {
    ckpt_entry *e = &ck->e[i];
    const dt_tensor *p = m->p[i];
    snprintf(e->name, sizeof e->name, "%s", m->names[i]);
    e->rank = dt_rank(p);
    e->shape[0] = dt_dim(p, 0);
    e->shape[1] = e->rank == 2 ? dt_dim(p, 1) : 0;
    e->device = dt_device_of(p);
    if (dt_numel(p) > MAX_ELEMS)
      return -1;
    dt_tensor *frozen = dt_detach(p);
    int rc = dt_read_floats(frozen, e->data, MAX_ELEMS);
    dt_free(frozen);
    if (rc != 0)
      return -1;
  }
  ck->step = step;
  ck->loss = loss;
  ck->valid = 1;
  return 0;
}

/* Re-creates every parameter from the checkpoint as a trainable leaf of the model's device. */
static void ckpt_restore(const checkpoint *ck, model *m) {
  for (int i = 0; i < N_PARAMS; i++) {
    const ckpt_entry *e = &ck->e[i];
    dt_tensor *t = dt_from_floats(e->device, e->data, e->rank, e->shape);
    dt_free(m->p[i]);
    m->p[i] = dt_require_grad(dt_from_inner(m->dev, t)); // expect-error: autodiff-nested
  }
}

/* ---- data ---- */

static void make_batch(int step, float *x, float *y) {
  for (int r = 0; r < BATCH; r++) {
    float s = 0.0f;
    for (int c = 0; c < D_IN; c++) {
      float v = (float)(((step + 1) * 13 + r * 7 + c * 3) % 17) / 17.0f - 0.5f;
      x[r * D_IN + c] = v;
      s += v;
    }
    y[r * D_OUT + 0] = s > 0.0f ? 1.0f : 0.0f;
    y[r * D_OUT + 1] = s > 0.0f ? 0.0f : 1.0f;
  }
}

static dt_tensor *to_model(const model *m, const float *data, int64_t rows, int64_t cols) {
  dt_tensor *h = dt_from_floats(dt_cpu(), data, 2, (const int64_t[]){rows, cols});
  dt_tensor *d = dt_to_device(h, dt_inner_device(m->dev));
  dt_free(h);
  return dt_from_inner(m->dev, d);
}

static float scalar_of(const dt_tensor *t) {
  float v = FLT_MAX;
  dt_tensor *d = dt_detach(t);
  if (d && dt_read_floats(d, &v, 1) != 0)
    v = FLT_MAX;
  dt_free(d);
  return v;
}

static float sgd_step(model *m, int step, float lr) {
  float xs[BATCH * D_IN], ys[BATCH * D_OUT];
  make_batch(step, xs, ys);
  dt_tensor *x = to_model(m, xs, BATCH, D_IN);
  dt_tensor *y = to_model(m, ys, BATCH, D_OUT);
  dt_tensor *pred = model_forward(m, x);
  dt_tensor *loss = dt_mse_loss(pred, y);
  dt_backward(loss);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_tensor *g = dt_grad(m->p[i]);
    if (!g)
      continue;
    dt_tensor *inner = dt_inner(m->p[i]);
    dt_tensor *d = dt_mul_scalar(g, lr);
    dt_tensor *next = dt_sub(inner, d);
    dt_free(m->p[i]);
    m->p[i] = dt_require_grad(dt_from_inner(m->dev, next));
    dt_free(inner);
    dt_free(d);
    dt_free(g);
  }
  float v = scalar_of(loss);
  dt_free(x);
  dt_free(y);
  dt_free(pred);
  dt_free(loss);
  return v;
}

static float evaluate(const model *m) {
  float total = 0.0f;
  for (int k = 0; k < 3; k++) {
    float xs[BATCH * D_IN], ys[BATCH * D_OUT];
    make_batch(1000 + k, xs, ys);
    dt_tensor *x = to_model(m, xs, BATCH, D_IN);
    dt_tensor *y = to_model(m, ys, BATCH, D_OUT);
    dt_tensor *pred = model_forward(m, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    total += scalar_of(loss);
    dt_free(x);
    dt_free(y);
    dt_free(pred);
    dt_free(loss);
  }
  return total / 3.0f;
}

int main(int argc, char **argv) {
  int steps = 8;
  float lr = 0.2f;
  if (argc > 1)
    steps = atoi(argv[1]);
  if (steps <= 0)
    steps = 8;

  model m;
  model_init(&m, dt_autodiff(dt_sim(0)));
  static checkpoint best;
  memset(&best, 0, sizeof best);
  if (ckpt_save(&best, &m, 0, evaluate(&m)) != 0) {
    fprintf(stderr, "initial checkpoint failed\n");
    return 1;
  }
  for (int s = 1; s <= steps; s++) {
    float train_loss = sgd_step(&m, s, lr);
    float val = evaluate(&m);
    if (val < best.loss && ckpt_save(&best, &m, s, val) != 0)
      fprintf(stderr, "checkpoint at step %d failed\n", s);
    if (s % 4 == 0)
      printf("step %d train %.4f val %.4f\n", s, train_loss, val);
  }
  printf("restoring step %d (val %.4f)\n", best.step, best.loss);
  ckpt_restore(&best, &m);
  printf("final val %.4f\n", evaluate(&m));
  model_free(&m);
  return 0;
}
