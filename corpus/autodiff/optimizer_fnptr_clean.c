// provenance: blind round field7
/* optimizer_fnptr_clean.c — optimizers chosen from a registry of function pointers (sgd,
 * momentum, rmsprop-lite). Optimizer state is allocated lazily with the parameter's own
 * device (dt_device_of), so it lands wherever the model was placed — here sim:1, chosen from
 * OPT_DEVICE. Static state counts steps. goto-cleanup on failure. Correct on every input. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NP 2
#define D 4

typedef struct {
  dt_tensor *value;
  dt_tensor *state; /* lazily allocated, same device and shape as value */
} slot;

typedef int (*update_fn)(slot *s, const dt_tensor *grad, float lr);

typedef struct {
  const char *name;
  update_fn fn;
} optimizer;

static int g_updates;

static int ensure_state(slot *s) {
  if (s->state) return 0;
  int64_t shape[2] = {dt_dim(s->value, 0), dt_dim(s->value, 1)};
  s->state = dt_zeros(dt_device_of(s->value), DT_FLOAT, 2, shape);
  return s->state ? 0 : -1;
}

static int upd_sgd(slot *s, const dt_tensor *g, float lr) {
  dt_tensor *st = dt_mul_scalar(g, -lr);
  dt_tensor *nv = dt_add(s->value, st);
  dt_free(st);
  dt_free(s->value);
  s->value = nv;
  g_updates++;
  return nv ? 0 : -1;
}

static int upd_momentum(slot *s, const dt_tensor *g, float lr) {
  if (ensure_state(s)) return -1;
  dt_tensor *decayed = dt_mul_scalar(s->state, 0.9f);
  dt_tensor *v = dt_add(decayed, g);
  dt_tensor *st = dt_mul_scalar(v, -lr);
  dt_tensor *nv = dt_add(s->value, st);
  dt_free(decayed);
  dt_free(st);
  dt_free(s->state);
  dt_free(s->value);
  s->state = v;
  s->value = nv;
  g_updates++;
  return 0;
}

static int upd_rms(slot *s, const dt_tensor *g, float lr) {
  if (ensure_state(s)) return -1;
  dt_tensor *g2 = dt_mul(g, g);
  dt_tensor *old = dt_mul_scalar(s->state, 0.9f);
  dt_tensor *new2 = dt_mul_scalar(g2, 0.1f);
  dt_tensor *acc = dt_add(old, new2);
  dt_tensor *den = dt_add_scalar(acc, 1e-3f);
  dt_tensor *step = dt_div(g, den);
  dt_tensor *scaled = dt_mul_scalar(step, -lr * 0.01f);
  dt_tensor *nv = dt_add(s->value, scaled);
  dt_free(g2);
  dt_free(old);
  dt_free(new2);
  dt_free(den);
  dt_free(step);
  dt_free(scaled);
  dt_free(s->state);
  dt_free(s->value);
  s->state = acc;
  s->value = nv;
  g_updates++;
  return 0;
}

static const optimizer k_registry[] = {{"sgd", upd_sgd}, {"momentum", upd_momentum}, {"rms", upd_rms}};

static const optimizer *find_optimizer(const char *name) {
  for (size_t i = 0; i < sizeof k_registry / sizeof k_registry[0]; ++i)
    if (name && !strcmp(k_registry[i].name, name)) return &k_registry[i];
  return &k_registry[1];
}

/* gradient of 0.5*||x W - t||^2 wrt W, computed by hand on the parameter's device */
static dt_tensor *grad_of(const dt_tensor *w, const dt_tensor *x, const dt_tensor *t) {
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *e = dt_sub(p, t);
  dt_tensor *xt = dt_transpose(x);
  dt_tensor *g = dt_matmul(xt, e);
  dt_free(p);
  dt_free(e);
  dt_free(xt);
  return g;
}

int main(int argc, char **argv) {
  const optimizer *opt = find_optimizer(argc > 1 ? argv[1] : getenv("OPTIMIZER"));
  const char *where = getenv("OPT_DEVICE");
  dt_device dev = (where && !strcmp(where, "cpu")) ? dt_cpu() : dt_sim(1);
  int status = 1;
  slot params[NP];
  memset(params, 0, sizeof params);
  dt_tensor *x = NULL, *t = NULL;
  const int64_t sw[] = {D, D}, sx[] = {3, D};

  for (int i = 0; i < NP; ++i) {
    dt_tensor *r = dt_randn(dev, 50u + (uint64_t)i, 2, sw);
    params[i].value = dt_mul_scalar(r, 0.1f);
    dt_free(r);
    if (!params[i].value) goto cleanup;
  }
  x = dt_randn(dev, 7u, 2, sx);
  t = dt_zeros(dev, DT_FLOAT, 2, sx);
  if (!x || !t) goto cleanup;

  for (int it = 0; it < 10; ++it) {
    for (int i = 0; i < NP; ++i) {
      dt_tensor *g = grad_of(params[i].value, x, t);
      int rc = opt->fn(&params[i], g, 0.05f);
      dt_free(g);
      if (rc) goto cleanup;
    }
  }
  {
    dt_tensor *p = dt_matmul(x, params[0].value);
    dt_tensor *l = dt_mse_loss(p, t);
    float v = 0.0f;
    dt_read_floats(l, &v, 1);
    printf("%s: %d updates, residual %.6f\n", opt->name, g_updates, v);
    dt_free(p);
    dt_free(l);
  }
  status = 0;
cleanup:
  for (int i = 0; i < NP; ++i) {
    dt_free(params[i].value);
    dt_free(params[i].state);
  }
  dt_free(x);
  dt_free(t);
  return status;
}
