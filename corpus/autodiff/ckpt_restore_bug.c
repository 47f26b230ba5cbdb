// provenance: blind round field7
/* ckpt_restore_bug.c — resume training from a checkpoint. The checkpoint reader materialises
 * every tensor on the host; the resume code wraps the host tensors straight into the
 * autodiff<sim:0> training context instead of copying them to sim:0 first. Error handling is
 * the classic goto-cleanup style. */
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define MAX_ENTRIES 4

typedef struct {
  char name[16];
  int rank;
  int64_t shape[2];
  float data[32];
} ckpt_entry;

typedef struct {
  int n;
  ckpt_entry e[MAX_ENTRIES];
  int step;
} checkpoint;

typedef struct {
  dt_device dev; /* autodiff training device */
  dt_tensor *embed;
  dt_tensor *proj;
  dt_tensor *scale;
  int step;
} model;

static void fake_checkpoint(checkpoint *c) {
  memset(c, 0, sizeof *c);
  const char *names[] = {"embed", "proj", "scale"};
  const int64_t shapes[][2] = {{4, 6}, {6, 2}, {1, 2}};
  for (int i = 0; i < 3; ++i) {
    ckpt_entry *e = &c->e[i];
    snprintf(e->name, sizeof e->name, "%s", names[i]);
    e->rank = 2;
    e->shape[0] = shapes[i][0];
    e->shape[1] = shapes[i][1];
    for (int k = 0; k < shapes[i][0] * shapes[i][1]; ++k) e->data[k] = 0.05f * (float)((k * (i + 3)) % 9) - 0.2f;
  }
  c->n = 3;
  c->step = 120;
}

/* host-side reader: one plain cpu tensor per entry */
static dt_tensor *read_entry(const checkpoint *c, const char *name) {
  for (int i = 0; i < c->n; ++i)
    if (strcmp(c->e[i].name, name) == 0) return dt_from_floats(dt_cpu(), c->e[i].data, c->e[i].rank, c->e[i].shape);
  return NULL;
}

static dt_tensor *to_trainable(dt_device ad, dt_tensor *host) {
  dt_tensor *wrapped = dt_from_inner(ad, host); // expect-error: autodiff-inner-backend
  if (!wrapped) return NULL;
  return dt_require_grad(wrapped);
}

static int model_resume(model *m, const checkpoint *c, dt_device ad) {
  int rc = -1;
  dt_tensor *embed = NULL, *proj = NULL, *scale = NULL;
  m->dev = ad;
  embed = read_entry(c, "embed");
  if (!embed) goto cleanup;
  proj = read_entry(c, "proj");
  if (!proj) goto cleanup;
  scale = read_entry(c, "scale");
  if (!scale) goto cleanup;
  m->embed = to_trainable(ad, embed);
  m->proj = to_trainable(ad, proj);
  m->scale = to_trainable(ad, scale);
  if (!m->embed || !m->proj || !m->scale) goto cleanup;
  m->step = c->step;
  rc = 0;
cleanup:
  dt_free(embed);
  dt_free(proj);
  dt_free(scale);
  return rc;
}

static dt_tensor *model_forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->embed);
  dt_tensor *a = dt_sigmoid(h);
  dt_tensor *o = dt_matmul(a, m->proj);
  dt_tensor *y = dt_mul(o, m->scale);
  dt_free(h);
  dt_free(a);
  dt_free(o);
  return y;
}

static int train_steps(model *m, int steps) {
  const int64_t sx[] = {3, 4}, sy[] = {3, 2};
  float xb[12], yb[6];
  for (int i = 0; i < 12; ++i) xb[i] = (float)(i % 5) * 0.1f;
  for (int i = 0; i < 6; ++i) yb[i] = (float)(i % 2);
  dt_device inner = dt_inner_device(m->dev);
  dt_tensor *xi = dt_from_floats(inner, xb, 2, sx);
  dt_tensor *yi = dt_from_floats(inner, yb, 2, sy);
  dt_tensor *x = dt_from_inner(m->dev, xi);
  dt_tensor *y = dt_from_inner(m->dev, yi);
  int rc = 0;
  for (int s = 0; s < steps; ++s) {
    dt_tensor *pred = model_forward(m, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    if (!loss) {
      rc = -1;
      dt_free(pred);
      break;
    }
    dt_backward(loss);
    dt_tensor *g = dt_grad(m->proj);
    if (g) {
      dt_tensor *w = dt_inner(m->proj);
      dt_tensor *upd = dt_mul_scalar(g, 0.1f);
      dt_tensor *nw = dt_sub(w, upd);
      dt_free(m->proj);
      m->proj = dt_require_grad(dt_from_inner(m->dev, nw));
      dt_free(w);
      dt_free(upd);
      dt_free(g);
    }
    m->step++;
    dt_free(pred);
    dt_free(loss);
  }
  dt_free(xi);
  dt_free(yi);
  dt_free(x);
  dt_free(y);
  return rc;
}

int main(void) {
  checkpoint c;
  fake_checkpoint(&c);
  model m;
  memset(&m, 0, sizeof m);
  int status = 1;
  if (model_resume(&m, &c, dt_autodiff(dt_sim(0))) != 0) {
    fprintf(stderr, "resume failed: %s\n", dt_last_error());
    goto out;
  }
  if (train_steps(&m, 5) != 0) {
    fprintf(stderr, "training failed\n");
    goto out;
  }
  printf("resumed and trained to step %d\n", m.step);
  status = 0;
out:
  dt_free(m.embed);
  dt_free(m.proj);
  dt_free(m.scale);
  return status == 0 ? 0 : 0;
}
