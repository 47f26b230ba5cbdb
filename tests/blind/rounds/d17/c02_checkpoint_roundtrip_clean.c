/* c02_checkpoint_roundtrip_clean.c — train a small linear classifier on an autodiff device
 * picked from the TRAIN_DEVICE environment variable (a table of named devices, sim:0 when
 * unset or unknown), save a checkpoint to host memory (dt_inner, then a move to cpu, then
 * dt_read_floats), and restore it twice: into a fresh trainable model on autodiff<sim:1>
 * (plain tensors re-created on that device's *inner* device, then wrapped), and into a plain
 * inference model on cpu. The same forward helper serves the autodiff and the plain model.
 * Correct: every restore goes through dt_inner_device, and inputs follow each model. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IN 3
#define OUT 2
#define BATCH 5
#define MAX_ELEMS 64

typedef struct Linear {
  dt_tensor *w; /* [IN, OUT] */
  dt_tensor *b; /* [OUT] */
} Linear;

typedef struct CkptEntry {
  char name[8];
  int rank;
  int64_t shape[2];
  float data[MAX_ELEMS];
} CkptEntry;

typedef struct Checkpoint {
  CkptEntry entries[2];
  int count;
  int step;
} Checkpoint;

typedef struct NamedDevice {
  const char *name;
  dt_device dev;
} NamedDevice;

static dt_device pick_train_device(void) {
  const NamedDevice table[] = {
      {"cpu", dt_cpu()}, {"sim0", dt_sim(0)}, {"sim1", dt_sim(1)},
  };
  const char *want = getenv("TRAIN_DEVICE");
  dt_device chosen = dt_sim(0);
  if (want) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
      if (strcmp(table[i].name, want) == 0) {
        chosen = table[i].dev;
        break;
      }
    }
  }
  return dt_autodiff(chosen);
}

static void linear_init(Linear *l, dt_device ad) {
  dt_device in = dt_inner_device(ad);
  dt_tensor *w = dt_randn(in, 7, 2, (const int64_t[]){IN, OUT});
  l->w = dt_require_grad(dt_from_inner(ad, w));
  l->b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){OUT}));
  dt_free(w);
}

/* Works on either kind of model: x and the weights are on the same device, whatever it is. */
static dt_tensor *linear_forward(const Linear *l, const dt_tensor *x) {
  dt_tensor *xw = dt_matmul(x, l->w);
  dt_tensor *y = dt_add(xw, l->b);
  dt_free(xw);
  return y;
}

static dt_tensor *batch_on(dt_device d, int seed) {
  float xs[BATCH * IN];
  for (int i = 0; i < BATCH * IN; i++)
    xs[i] = (float)((i * 7 + seed) % 11) / 11.0f - 0.5f;
  dt_device plain = dt_inner_device(d);
  dt_tensor *x = dt_from_floats(plain, xs, 2, (const int64_t[]){BATCH, IN});
  if (!d.autodiff)
    return x;
  dt_tensor *wrapped = dt_from_inner(d, x);
  dt_free(x);
  return wrapped;
}

static void sgd(Linear *l, float lr) {
  dt_tensor **slots[2] = {&l->w, &l->b};
  for (int i = 0; i < 2; i++) {
    dt_tensor *p = *slots[i];
    dt_tensor *g = dt_grad(p);
    if (!g)
      continue;
    dt_tensor *inner = dt_inner(p);
    dt_tensor *step = dt_mul_scalar(g, lr);
    dt_tensor *next = dt_sub(inner, step);
    *slots[i] = dt_require_grad(dt_from_inner(dt_device_of(p), next));
    dt_free(p);
    dt_free(g);
    dt_free(inner);
    dt_free(step);
    dt_free(next);
  }
}

static void save_entry(CkptEntry *e, const char *name, const dt_tensor *param) {
  dt_tensor *host = dt_to_device(dt_inner(param), dt_cpu());
  snprintf(e->name, sizeof e->name, "%s", name);
  e->rank = dt_rank(host);
  for (int a = 0; a < e->rank; a++)
    e->shape[a] = dt_dim(host, a);
  dt_read_floats(host, e->data, MAX_ELEMS);
  dt_free(host);
}

static void checkpoint_save(Checkpoint *ck, const Linear *l, int step) {
  save_entry(&ck->entries[0], "w", l->w);
  save_entry(&ck->entries[1], "b", l->b);
  ck->count = 2;
  ck->step = step;
}

/* Restores onto `d`: trainable leaves when d is an autodiff device, plain tensors otherwise. */
static dt_tensor *restore_entry(const CkptEntry *e, dt_device d) {
  dt_tensor *plain = dt_from_floats(dt_inner_device(d), e->data, e->rank, e->shape);
  if (!d.autodiff)
    return plain;
  dt_tensor *t = dt_require_grad(dt_from_inner(d, plain));
  dt_free(plain);
  return t;
}

static void checkpoint_load(const Checkpoint *ck, Linear *l, dt_device d) {
  for (int i = 0; i < ck->count; i++) {
    dt_tensor *t = restore_entry(&ck->entries[i], d);
    if (strcmp(ck->entries[i].name, "w") == 0)
      l->w = t;
    else
      l->b = t;
  }
}

static float train_steps(Linear *l, dt_device ad, int steps) {
  float target[BATCH * OUT];
  for (int i = 0; i < BATCH * OUT; i++)
    target[i] = (i % 2) ? 1.0f : -1.0f;
  dt_tensor *yp = dt_from_floats(dt_inner_device(ad), target, 2, (const int64_t[]){BATCH, OUT});
  dt_tensor *y = dt_from_inner(ad, yp);
  float last = 0.0f;
  for (int s = 0; s < steps; s++) {
    dt_tensor *x = batch_on(ad, s);
    dt_tensor *pred = linear_forward(l, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    dt_read_floats(loss, &last, 1);
    sgd(l, 0.1f);
    dt_free(x);
    dt_free(pred);
    dt_free(loss);
  }
  dt_free(yp);
  dt_free(y);
  return last;
}

int main(void) {
  dt_device train_dev = pick_train_device();
  Linear model;
  linear_init(&model, train_dev);
  float loss = train_steps(&model, train_dev, 4);
  Checkpoint ck;
  memset(&ck, 0, sizeof ck);
  checkpoint_save(&ck, &model, 4);
  printf("saved step %d, loss %.4f, w is %lldx%lld\n", ck.step, loss,
         (long long)ck.entries[0].shape[0], (long long)ck.entries[0].shape[1]);

  /* Resume on the second accelerator. */
  dt_device resume_dev = dt_autodiff(dt_sim(1));
  Linear resumed;
  checkpoint_load(&ck, &resumed, resume_dev);
  loss = train_steps(&resumed, resume_dev, 2);
  printf("resumed on sim:1, loss %.4f\n", loss);

  /* Serve on the host, without autodiff. */
  Linear served;
  checkpoint_load(&ck, &served, dt_cpu());
  dt_tensor *x = batch_on(dt_cpu(), 3);
  dt_tensor *scores = linear_forward(&served, x);
  float out[BATCH * OUT];
  if (dt_read_floats(scores, out, BATCH * OUT) == 0)
    printf("first score %.4f\n", out[0]);

  dt_free(x);
  dt_free(scores);
  dt_free(model.w);
  dt_free(model.b);
  dt_free(resumed.w);
  dt_free(resumed.b);
  dt_free(served.w);
  dt_free(served.b);
  return 0;
}
