// provenance: blind round field6
// Train / checkpoint / resume / evaluate, with devices from a config struct.  The config
// has defaults (train on sim:1, evaluate on the cpu) that --train-dev and --eval-dev can
// override ("cpu", "sim0", "sim1").  Training uses autodiff<train>; a checkpoint copies the
// inner weights to host buffers; the job then "resumes" on the other sim device (migrating
// a checkpoint between devices), trains again and finally evaluates on the eval device.
// Every cross-device step goes through the host buffer or dt_to_device with a device taken
// from the tensor it must meet.  Clean for every argument combination.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define IN 2
#define OUT 1
#define ROWS 4

typedef struct config {
  dt_device train_dev;
  dt_device eval_dev;
  int steps;
  float lr;
} config;

typedef struct model {
  dt_device dev;   /* autodiff */
  dt_tensor *w;    /* IN x OUT */
  dt_tensor *b;    /* OUT */
} model;

typedef struct ckpt {
  float w[IN * OUT];
  float b[OUT];
  int step;
  char origin[32];
} ckpt;

static const int64_t WS[2] = {IN, OUT};
static const int64_t BS[1] = {OUT};
static const int64_t XS[2] = {ROWS, IN};
static const int64_t YS[2] = {ROWS, OUT};

static int parse_device(const char *s, dt_device *out) {
  if (strcmp(s, "cpu") == 0) { *out = dt_cpu(); return 1; }
  if (strcmp(s, "sim0") == 0) { *out = dt_sim(0); return 1; }
  if (strcmp(s, "sim1") == 0) { *out = dt_sim(1); return 1; }
  return 0;
}

static void config_load(config *c, int argc, char **argv) {
  c->train_dev = dt_sim(1);
  c->eval_dev = dt_cpu();
  c->steps = 4;
  c->lr = 0.1f;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--train-dev") == 0)
      parse_device(argv[i + 1], &c->train_dev);
    else if (strcmp(argv[i], "--eval-dev") == 0)
      parse_device(argv[i + 1], &c->eval_dev);
  }
}

static dt_tensor *leaf(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return dt_require_grad(t);
}

static void model_from_ckpt(model *m, dt_device plain, const ckpt *c) {
  m->dev = dt_autodiff(plain);
  m->w = leaf(m->dev, dt_from_floats(plain, c->w, 2, WS));
  m->b = leaf(m->dev, dt_from_floats(plain, c->b, 1, BS));
}

static void model_free(model *m) {
  dt_free(m->w);
  dt_free(m->b);
}

static void save(const model *m, ckpt *c, int step) {
  dt_tensor *wi = dt_inner(m->w);
  dt_tensor *bi = dt_inner(m->b);
  dt_read_floats(wi, c->w, IN * OUT);
  dt_read_floats(bi, c->b, OUT);
  dt_device_name(m->dev, c->origin, sizeof c->origin);
  c->step = step;
  dt_free(wi);
  dt_free(bi);
}

static void batch(dt_device plain, dt_tensor **x, dt_tensor **y) {
  float xv[ROWS * IN] = {0, 0, 0, 1, 1, 0, 1, 1};
  float yv[ROWS] = {0.1f, 0.6f, 0.4f, 0.9f};
  *x = dt_from_floats(plain, xv, 2, XS);
  *y = dt_from_floats(plain, yv, 2, YS);
}

static dt_tensor *predict(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w);
  dt_tensor *o = dt_add(h, m->b);
  dt_free(h);
  return o;
}

static dt_tensor *sgd(dt_device ad, dt_tensor *p, float lr) {
  dt_tensor *g = dt_grad(p);
  if (g == NULL)
    return p;
  dt_tensor *in = dt_inner(p);
  dt_tensor *gs = dt_mul_scalar(g, lr);
  dt_tensor *np = dt_sub(in, gs);
  dt_free(g);
  dt_free(in);
  dt_free(gs);
  dt_free(p);
  return leaf(ad, np);
}

static float train(model *m, int steps, float lr) {
  dt_device plain = dt_inner_device(m->dev);
  dt_tensor *xp, *yp;
  batch(plain, &xp, &yp);
  dt_tensor *x = dt_from_inner(m->dev, xp);
  dt_tensor *y = dt_from_inner(m->dev, yp);
  float last = 0.0f;
  for (int s = 0; s < steps; s++) {
    dt_tensor *p = predict(m, x);
    dt_tensor *l = dt_mse_loss(p, y);
    dt_read_floats(l, &last, 1);
    dt_backward(l);
    m->w = sgd(m->dev, m->w, lr);
    m->b = sgd(m->dev, m->b, lr);
    dt_free(p);
    dt_free(l);
  }
  dt_free(x);
  dt_free(y);
  dt_free(xp);
  dt_free(yp);
  return last;
}

static dt_device other_sim(dt_device d) {
  if (d.backend == DT_BACKEND_SIM && d.ordinal == 0)
    return dt_sim(1);
  return dt_sim(0);
}

static float evaluate(const ckpt *c, dt_device eval_dev) {
  dt_tensor *w = dt_from_floats(eval_dev, c->w, 2, WS);
  dt_tensor *b = dt_from_floats(eval_dev, c->b, 1, BS);
  dt_tensor *x, *y;
  batch(eval_dev, &x, &y);
  dt_tensor *h = dt_matmul(x, w);
  dt_tensor *o = dt_add(h, b);
  dt_tensor *l = dt_mse_loss(o, y);
  float v = 0.0f;
  dt_read_floats(l, &v, 1);
  dt_tensor *all[] = {w, b, x, y, h, o, l};
  for (int i = 0; i < 7; i++)
    dt_free(all[i]);
  return v;
}

/* compare the resumed model with the checkpoint, on the resumed model's device */
static float drift(const model *m, const ckpt *c) {
  dt_tensor *wi = dt_inner(m->w);
  dt_tensor *ref = dt_from_floats(dt_cpu(), c->w, 2, WS);
  dt_tensor *ref_here = dt_to_device(ref, dt_device_of(wi));
  dt_tensor *d = dt_sub(wi, ref_here);
  dt_tensor *d2 = dt_mul(d, d);
  dt_tensor *s = dt_sum(d2);
  float v = 0.0f;
  dt_read_floats(s, &v, 1);
  dt_tensor *all[] = {wi, ref, ref_here, d, d2, s};
  for (int i = 0; i < 6; i++)
    dt_free(all[i]);
  return v;
}

int main(int argc, char **argv) {
  config cfg;
  config_load(&cfg, argc, argv);

  ckpt c;
  memset(&c, 0, sizeof c);
  c.w[0] = 0.5f;
  c.w[1] = -0.5f;
  model m;
  model_from_ckpt(&m, cfg.train_dev, &c);
  float l1 = train(&m, cfg.steps, cfg.lr);
  save(&m, &c, cfg.steps);
  model_free(&m);
  printf("phase 1 loss %.5f (%s)\n", (double)l1, c.origin);

  model r;
  model_from_ckpt(&r, other_sim(cfg.train_dev), &c);
  float l2 = train(&r, cfg.steps, cfg.lr);
  printf("phase 2 loss %.5f drift %.6f\n", (double)l2, (double)drift(&r, &c));
  save(&r, &c, 2 * cfg.steps);
  model_free(&r);

  printf("eval loss %.5f (%s, step %d)\n", (double)evaluate(&c, cfg.eval_dev), c.origin, c.step);
  return 0;
}
