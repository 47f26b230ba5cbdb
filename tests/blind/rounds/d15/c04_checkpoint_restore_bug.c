// blind round d15 — checkpoint / restore of a classifier and its SGD-momentum state.
// Training runs on autodiff<sim:0> or autodiff<sim:1> (argv[1] = "1"); the checkpoint keeps
// host copies (inner tensors moved to the cpu, read into a host buffer, written to a file).
// Restoring the momentum buffers moves them back to the device, as it should; restoring the
// weights wraps the freshly loaded *host* tensor straight into the training device. Either
// ordinal fails: the inner backend is cpu where sim is expected.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_PARAMS 4
#define D_IN 5
#define D_HID 7
#define N_CLASS 3
#define BATCH 6

typedef struct {
  char name[16];
  int rank;
  int64_t shape[2];
  dt_tensor *value;    /* autodiff leaf */
  dt_tensor *momentum; /* plain, on the inner device */
} named_param;

typedef struct {
  dt_device dev;
  named_param p[N_PARAMS];
} classifier;

typedef struct {
  int step;
  float lr, mu;
} sgd_state;

static int64_t numel_of(const named_param *p) {
  return p->rank == 1 ? p->shape[0] : p->shape[0] * p->shape[1];
}

static void param_init(named_param *p, const char *name, dt_device dev, int rank, int64_t d0,
                       int64_t d1, uint64_t seed) {
  snprintf(p->name, sizeof p->name, "%s", name);
  p->rank = rank;
  p->shape[0] = d0;
  p->shape[1] = d1;
  dt_tensor *r = dt_randn(dt_inner_device(dev), seed, rank, p->shape);
  dt_tensor *s = dt_mul_scalar(r, 0.3f);
  p->value = dt_require_grad(dt_from_inner(dev, s));
  p->momentum = dt_zeros(dt_inner_device(dev), DT_FLOAT, rank, p->shape);
  dt_free(r);
  dt_free(s);
}

static void classifier_init(classifier *c, dt_device dev) {
  c->dev = dev;
  param_init(&c->p[0], "fc1.weight", dev, 2, D_IN, D_HID, 1);
  param_init(&c->p[1], "fc1.bias", dev, 1, D_HID, 0, 2);
  param_init(&c->p[2], "fc2.weight", dev, 2, D_HID, N_CLASS, 3);
  param_init(&c->p[3], "fc2.bias", dev, 1, N_CLASS, 0, 4);
}

static dt_tensor *classifier_logits(const classifier *c, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, c->p[0].value);
  dt_tensor *b = dt_add(a, c->p[1].value);
  dt_tensor *h = dt_relu(b);
  dt_tensor *o = dt_matmul(h, c->p[2].value);
  dt_tensor *z = dt_add(o, c->p[3].value);
  dt_free(a);
  dt_free(b);
  dt_free(h);
  dt_free(o);
  return z;
}

static void batch(dt_device dev, int step, dt_tensor **x, dt_tensor **onehot) {
  float xs[BATCH * D_IN], ys[BATCH * N_CLASS];
  for (int i = 0; i < BATCH; i++) {
    int cls = (i + step) % N_CLASS;
    for (int j = 0; j < D_IN; j++) xs[i * D_IN + j] = (j == cls ? 1.0f : 0.1f * (float)(j - i % 3));
    for (int k = 0; k < N_CLASS; k++) ys[i * N_CLASS + k] = k == cls ? 1.0f : 0.0f;
  }
  *x = dt_from_floats(dev, xs, 2, (const int64_t[]){BATCH, D_IN});
  *onehot = dt_from_floats(dev, ys, 2, (const int64_t[]){BATCH, N_CLASS});
}

static float sgd_step(classifier *c, sgd_state *st) {
  dt_tensor *x, *y;
  batch(c->dev, st->step, &x, &y);
  dt_tensor *z = classifier_logits(c, x);
  dt_tensor *p = dt_sigmoid(z);
  dt_tensor *loss = dt_mse_loss(p, y);
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  for (int i = 0; i < N_PARAMS; i++) {
    named_param *np = &c->p[i];
    dt_tensor *g = dt_grad(np->value);
    if (!g) continue;
    dt_tensor *m0 = dt_mul_scalar(np->momentum, st->mu);
    dt_tensor *m1 = dt_add(m0, g);
    dt_tensor *w = dt_inner(np->value);
    dt_tensor *d = dt_mul_scalar(m1, st->lr);
    dt_tensor *w1 = dt_sub(w, d);
    dt_free(np->value);
    dt_free(np->momentum);
    np->value = dt_require_grad(dt_from_inner(c->dev, w1));
    np->momentum = m1;
    dt_free(g);
    dt_free(m0);
    dt_free(w);
    dt_free(d);
    dt_free(w1);
  }
  st->step++;
  dt_free(x);
  dt_free(y);
  dt_free(z);
  dt_free(p);
  dt_free(loss);
  return lv;
}

/* ---- checkpoint file: [step][lr][mu] then, per param, numel floats of weight and momentum ---- */

static int write_tensor(FILE *f, const dt_tensor *t, int64_t n) {
  dt_tensor *host = dt_to_device(t, dt_cpu());
  float *buf = malloc((size_t)n * sizeof *buf);
  int rc = (host && buf && dt_read_floats(host, buf, n) == 0 &&
            fwrite(buf, sizeof *buf, (size_t)n, f) == (size_t)n) ? 0 : -1;
  free(buf);
  dt_free(host);
  return rc;
}

static int save_checkpoint(FILE *f, const classifier *c, const sgd_state *st) {
  if (fwrite(st, sizeof *st, 1, f) != 1) return -1;
  for (int i = 0; i < N_PARAMS; i++) {
    const named_param *np = &c->p[i];
    dt_tensor *w = dt_inner(np->value);
    int rc = write_tensor(f, w, numel_of(np));
    dt_free(w);
    if (rc != 0 || write_tensor(f, np->momentum, numel_of(np)) != 0) return -1;
  }
  return fflush(f);
}

static dt_tensor *read_host_tensor(FILE *f, const named_param *np) {
  int64_t n = numel_of(np);
  float *buf = malloc((size_t)n * sizeof *buf);
  dt_tensor *t = NULL;
  if (buf && fread(buf, sizeof *buf, (size_t)n, f) == (size_t)n)
    t = dt_from_floats(dt_cpu(), buf, np->rank, np->shape);
  free(buf);
  return t;
}

static dt_tensor *restore_weight(dt_device dev, dt_tensor *host) {
  dt_tensor *w = dt_from_inner(dev, host); // expect-error: autodiff-inner-backend
  return w ? dt_require_grad(w) : NULL;
}

static dt_tensor *restore_momentum(dt_device dev, dt_tensor *host) {
  return dt_to_device(host, dt_inner_device(dev));
}

static int load_checkpoint(FILE *f, classifier *c, sgd_state *st) {
  rewind(f);
  if (fread(st, sizeof *st, 1, f) != 1) return -1;
  for (int i = 0; i < N_PARAMS; i++) {
    named_param *np = &c->p[i];
    dt_tensor *hw = read_host_tensor(f, np);
    dt_tensor *hm = read_host_tensor(f, np);
    if (!hw || !hm) return -1;
    dt_free(np->value);
    dt_free(np->momentum);
    np->value = restore_weight(c->dev, hw);
    np->momentum = restore_momentum(c->dev, hm);
    dt_free(hw);
    dt_free(hm);
    if (!np->value || !np->momentum) return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  dt_device base = (argc > 1 && strcmp(argv[1], "1") == 0) ? dt_sim(1) : dt_sim(0);
  classifier model;
  classifier_init(&model, dt_autodiff(base));
  sgd_state st = {0, 0.2f, 0.9f};
  for (int i = 0; i < 3; i++) printf("step %d loss %.4f\n", st.step, sgd_step(&model, &st));
  FILE *f = tmpfile();
  if (!f || save_checkpoint(f, &model, &st) != 0) {
    fprintf(stderr, "cannot write checkpoint\n");
    return 1;
  }
  float before = sgd_step(&model, &st); /* one step past the checkpoint, then roll back */
  if (load_checkpoint(f, &model, &st) != 0) {
    fprintf(stderr, "cannot restore checkpoint\n");
    fclose(f);
    return 0;
  }
  float after = sgd_step(&model, &st);
  printf("step past checkpoint %.5f, replayed %.5f\n", before, after);
  fclose(f);
  for (int i = 0; i < N_PARAMS; i++) {
    dt_free(model.p[i].value);
    dt_free(model.p[i].momentum);
  }
  return 0;
}
